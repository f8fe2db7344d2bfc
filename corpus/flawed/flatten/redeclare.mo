// A redeclaration of a replaceable component. Constructs outside the subset
// are refused class by class as the model uses them: instantiating
// Redeclare stops at its redeclare, before Spring (with its replaceable) is
// reached.
// status: flawed
// expect: flatten-unsupported-construct at 17:12 "redeclare is not supported"
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
