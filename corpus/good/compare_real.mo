// A compareReal-style utility (as the Compliance suite's Util.compareReal):
// a function with a default input, a protected variable, abs and an `or` of
// relations, used in a condition and in an assert. Its body is straight-line,
// so it is inlined and its relations become the model's event conditions.
// status: good
model CompareReal
  function compareReal
    input Real a;
    input Real b;
    input Real eps = 1e-10;
    output Boolean r;
  protected
    Real d;
  algorithm
    d := abs(a - b);
    r := d < eps or d < eps*abs(a);
  end compareReal;
  Real x(start = 0, fixed = true);
  Real y;
equation
  der(x) = 1;
  y = if compareReal(x, 0.5, 0.1) then 1 else 0;
  assert(compareReal(2.0, 2.0), "2 and 2 compare equal");
end CompareReal;
