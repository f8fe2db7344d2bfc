// connect() of a connector and a plain Real variable.
// status: flawed
// expect: flatten-type-mismatch at 22:16 "'u' is not a connector"
connector Pin
  Real v;
  flow Real i;
end Pin;

model Resistor
  Pin p, n;
  parameter Real R = 1;
equation
  p.v - n.v = R*p.i;
  p.i + n.i = 0;
end Resistor;

model ConnectNonConnector
  Resistor r;
  Real u;
equation
  u = 1;
  connect(r.p, u);
  r.n.v = 0;
end ConnectNonConnector;
