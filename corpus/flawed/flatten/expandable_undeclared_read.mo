// An element that connect() adds to an expandable connector, read in an
// equation: modeaudit names such elements only as sides of connect
// equations, and says so.
// status: flawed
// expect: flatten-unsupported-construct at 16:16 "no declared element of the expandable connector"
expandable connector Bus
end Bus;

connector RealOutput = output Real;

model ExpandableUndeclaredRead
  Bus bus;
  RealOutput y;
  Real x(start = 0, fixed = true);
equation
  der(x) = bus.v;
  y = time;
  connect(y, bus.v);
end ExpandableUndeclaredRead;
