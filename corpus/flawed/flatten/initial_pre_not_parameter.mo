// An initial equation that gives pre(b) of a discrete Boolean a value known
// only at the start (a continuous variable's): modeaudit starts discrete
// variables from parameter expressions only, and says so.
// status: flawed
// expect: flatten-unsupported-construct at 11:3 "known only at the start"
model LatchFromState
  Real x(start = 1, fixed = true);
  Boolean b;
  parameter Real limit = 0.5;
initial equation
  pre(b) = x > limit;
equation
  der(x) = -x;
  b = pre(b) and x > limit;
end LatchFromState;
