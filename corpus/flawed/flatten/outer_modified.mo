// An outer declaration with a modifier: the value belongs to the inner
// element (Modelica 3.6, 5.4), so modeaudit refuses it where it is written.
// status: flawed
// expect: flatten-type-mismatch at 8:29 "the outer element 'heater.T_ref' takes no modification"
model Heater
  parameter Real P = 100;
  Real T(start = 290, fixed = true);
  outer parameter Real T_ref(start = 300);
equation
  der(T) = P/1000 - (T - T_ref)/50;
end Heater;

model OuterModified
  inner parameter Real T_ref = 295;
  Heater heater;
end OuterModified;
