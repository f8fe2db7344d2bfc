// Near miss of limit-exceeded (corpus/flawed/limit/expression_size.mo): the
// same constraint as a power of a sum at exponent 4 multiplies out to
// 15 terms, within the default limit of 1,000 on the expression size, so
// every stage expands it and the audit goes through.
// status: good
// expect: restart-impulsive at 24:3 "lambda of order 1"
model ExpressionSizeBelowLimit
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
    (x^2 + y^2 + 1)^4 = 16;
  else
    lambda = 0;
  end if;
  when (x^2 + y^2 + 1)^4 >= 16 then
    taut = true;
  end when;
end ExpressionSizeBelowLimit;
