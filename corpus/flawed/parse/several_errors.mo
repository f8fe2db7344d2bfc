// Three independent syntax errors in one file: each is reported in one run.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 9:20 "expected ';'"
// expect: parse-syntax-error at 11:12 "expected an expression, found ';'"
// expect: parse-syntax-error at 14:12 "expected an expression, found '*'"
model SeveralErrors
  parameter Real k = 2;
  Real x(start = 1)
  Real y;
  Real z = ;
equation
  der(x) = -k*x;
  y = 2*x +* 3;
  z = y;
end SeveralErrors;
