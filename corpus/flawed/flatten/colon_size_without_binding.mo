// A friction table whose size ':' would come from its binding, but the
// table is given none: its size is unknown.
// status: flawed
// expect: flatten-array-size at 8:21 "comes from its binding"
model Table
  parameter Real d0 = mu[1, 2];
  Real x(start = 1, fixed = true);
  parameter Real mu[:, 2];
equation
  der(x) = -d0*x;
end Table;
