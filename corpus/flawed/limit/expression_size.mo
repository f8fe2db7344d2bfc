// A power of a sum that multiplies out to 80,601 terms, over the default
// limit of 1,000 on the expression size: the stage that would expand it
// refuses, naming the limit and --max-expression-terms, instead of spending
// minutes and gigabytes on the expansion.
// status: flawed
// expect: limit-exceeded at 8:1 "could have more than 1000 terms when multiplied out"
// Near miss: corpus/good/near_miss/expression_size_below_limit.mo.
model ExpressionSize
  Real x(start = 0.4, fixed = true);
  Real y(start = -0.7, fixed = true);
  Real vx(start = 2, fixed = true);
  Real vy(start = 0, fixed = true);
  Real lambda;
  Boolean taut(start = false);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - 9.81;
  if taut then
    (x^2 + y^2 + 1)^400 = 2^400;
  else
    lambda = 0;
  end if;
  when x^2 + y^2 >= 1 then
    taut = true;
  end when;
end ExpressionSize;
