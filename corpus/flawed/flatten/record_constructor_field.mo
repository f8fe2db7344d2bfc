// A record constructor call that names a field the record does not have,
// and one that gives a final field (no input of the constructor, Modelica
// 3.6, 12.6): both are refused at the argument; the first stops the run.
// status: flawed
// expect: flatten-type-mismatch at 15:60 "the record has no field 'Rth'"
record Winding
  parameter Real R = 1 "resistance at 20 degC";
  parameter Real alpha = 0.004 "temperature coefficient";
  final parameter Real R80 = R*(1 + alpha*60) "resistance at 80 degC";
end Winding;

model RecordConstructorField
  Real i(start = 0, fixed = true);
  parameter Winding good = Winding(R = 2);
  parameter Winding wrong = Winding(R = 2, alpha = 0.0039, Rth = 5);
  parameter Winding wrongFinal = Winding(R80 = 3);
equation
  der(i) = (1 - good.R80*i) + wrong.R + wrongFinal.R;
end RecordConstructorField;
