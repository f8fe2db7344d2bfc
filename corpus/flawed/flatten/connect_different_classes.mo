// connect() of an electrical pin and a thermal port.
// status: flawed
// expect: flatten-type-mismatch at 22:3 "connectors 'p' and 'h' have different variables"
connector Pin
  Real v;
  flow Real i;
end Pin;

connector HeatPort
  Real T;
  flow Real Q_flow;
end HeatPort;

model ConnectDifferentClasses
  Pin p;
  HeatPort h;
  Real x(start = 1);
equation
  der(x) = -x;
  p.v = x;
  h.T = 300;
  connect(p, h);
end ConnectDifferentClasses;
