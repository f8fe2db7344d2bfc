// The file ends in the middle of an expression.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 8:15 "unexpected end of file"
model TruncatedExpression
  Real x(start = 1);
equation
  der(x) = -2*