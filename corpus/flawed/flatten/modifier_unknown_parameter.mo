// A component modifier that names a parameter the class does not have
// (`aera` for `area`): it must be refused, not ignored with area keeping its default.
// status: flawed
// expect: flatten-undefined-name at 15:10 "'aera'"
model Tank
  parameter Real area = 1;
  Real h(start = 1, fixed = true);
  Real q;
equation
  area*der(h) = -q;
  q = 0.1*h;
end Tank;

model ModifierUnknownParameter
  Tank t(aera = 2);
end ModifierUnknownParameter;
