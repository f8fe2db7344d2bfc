// A continuous position (not only the velocity) assigned in an algorithm when.
// status: flawed
// expect: flatten-continuous-assigned-in-when at 14:5 "'x' is assigned in a when-clause"
model ContinuousAssignedInWhen
  parameter Real k = 10;
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -k*x;
algorithm
  when x <= 0 then
    reinit(v, -0.9*pre(v));
    x := 0;
  end when;
end ContinuousAssignedInWhen;
