// A Latin-1 byte (0xE9, e acute) in a comment: the file is not UTF-8.
// status: flawed
// stage: parse
// expect: parse-invalid-encoding at 7:10 "byte 0xE9"
model Latin1Comment
  Real x(start = 1);
  // température initiale
equation
  der(x) = -x;
end Latin1Comment;
