// The file ends inside a model: its `end` is missing.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 10:1 "unexpected end of file: class 'TruncatedClass' opened at 5:1 is not closed"
model TruncatedClass
  Real x(start = 1);
equation
  der(x) = -x;
  x = x; // last line
