// An equation without its semicolon, the next equation on the following line.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 9:14 "expected ';'"
model MissingSemicolonEquation
  Real x(start = 1);
  Real y;
equation
  der(x) = -x
  y = 2*x;
end MissingSemicolonEquation;
