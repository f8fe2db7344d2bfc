// A redeclaration of a replaceable class (not of a component): outside the
// subset, refused where it is written, when the model uses the class that
// holds it.
// status: flawed
// expect: flatten-unsupported-construct at 21:12 "redeclaration of a class is not supported"
model Linear
  parameter Real k = 1;
end Linear;

model Spring
  replaceable model Law = Linear;
  Law law;
  Real x(start = 1);
  Real v(start = 0);
equation
  der(x) = v;
  der(v) = -law.k*x;
end Spring;

model Redeclare
  Spring s(redeclare model Law = Linear(k = 2));
end Redeclare;
