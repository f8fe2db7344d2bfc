// Near miss of parse-invalid-encoding: a UTF-8 byte order mark at the very
// start of the file, which Modelica tools (and the lexer) accept and ignore.
// status: good
model Utf8Bom
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end Utf8Bom;
