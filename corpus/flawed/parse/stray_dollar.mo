// A stray `$` in an equation.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 9:12 "unexpected character '$'"
model StrayDollar
  Real x(start = 1);
  Real y;
equation
  der(x) = $x;
  y = x;
end StrayDollar;
