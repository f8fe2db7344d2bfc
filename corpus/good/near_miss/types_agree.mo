// Near miss of flatten-type-mismatch: a Boolean used as a condition and turned
// into a number with an if-expression, a relation as the condition of an
// if-equation, an array equation with sides of equal shape, and connect() of
// two connectors of the same class.
// status: good
connector Flange
  Real s;
  flow Real f;
end Flange;

model Spring
  Flange a, b;
  parameter Real k = 10;
equation
  a.f + b.f = 0;
  a.f = k*(a.s - b.s);
end Spring;

model Mass
  Flange a;
  parameter Real m = 1;
  Real v(start = 0, fixed = true);
equation
  der(a.s) = v;
  m*der(v) = a.f;
end Mass;

model Fixed
  Flange flange;
equation
  flange.s = 0;
end Fixed;

model TypesAgree
  Spring sp;
  Fixed wall;
  Mass ms(a(s(start = 0.1, fixed = true)));
  Real x[3](each start = 1, each fixed = true);
  Real y[3];
  Real u;
  Boolean on;
equation
  connect(sp.a, ms.a);
  connect(sp.b, wall.flange);
  on = x[1] > 0.5;
  u = 2*x[2] + 3*(if on then 1 else 0);
  der(x) = y;
  y = {-x[1], -x[2], -u};
end TypesAgree;
