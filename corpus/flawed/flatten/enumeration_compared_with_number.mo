// An enumeration value compared with a number (Modelica 3.6, 4.8.5): the
// comparison of positions is written Integer(s) == 2.
// status: flawed
// expect: flatten-type-mismatch at 11:10 "'s == 2' compares a value of the enumeration 'State' with a number"
model EnumerationComparedWithNumber
  type State = enumeration(idle, running);
  State s(start = State.idle, fixed = true);
  Real x(start = 0, fixed = true);
  Real v;
equation
  v = if s == 2 then 1 else 0;
  der(x) = v;
  when x > 1 then
    s = State.running;
  end when;
end EnumerationComparedWithNumber;
