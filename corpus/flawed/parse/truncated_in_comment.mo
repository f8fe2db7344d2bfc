// The file ends inside a block comment.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 10:3 "unterminated comment"
// expect: parse-syntax-error at 11:19 "class 'TruncatedComment' opened at 6:1 is not closed"
model TruncatedComment
  Real x(start = 1);
equation
  der(x) = -x;
  /* to do: add the second state
  and its equation