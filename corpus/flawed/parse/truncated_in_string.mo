// The file ends inside a description string.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 7:21 "unterminated string"
// expect: parse-syntax-error at 7:38 "class 'TruncatedString' opened at 6:1 is not closed"
model TruncatedString
  Real x(start = 1) "the state of the