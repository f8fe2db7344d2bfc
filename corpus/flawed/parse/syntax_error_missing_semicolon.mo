// A declaration without its semicolon.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 6:20 "expected ';'"
model MissingSemicolon
  Real x(start = 1)
  Real y;
equation
  der(x) = -x;
  y = 2*x;
end MissingSemicolon;
