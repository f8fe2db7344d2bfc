// A redeclaration of a replaceable component.
// status: flawed
// expect: flatten-unsupported-construct at 6:3 "replaceable is not supported"
// expect: flatten-unsupported-construct at 15:12 "redeclare is not supported"
model Spring
  replaceable Real k = 1;
  Real x(start = 1);
  Real v(start = 0);
equation
  der(x) = v;
  der(v) = -k*x;
end Spring;

model Redeclare
  Spring s(redeclare Real k = 2);
end Redeclare;
