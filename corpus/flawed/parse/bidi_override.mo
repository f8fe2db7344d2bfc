// Bidirectional format characters hide what the text says: a right-to-left
// override (U+202E) inside a comment, and one at the end of a quoted name,
// where it is invisible: 'x' followed by U+202E looks like 'x' on screen but
// is another name, so the equation reads an undeclared variable.
// status: flawed
// expect: parse-bidi-format-character at 12:8 "U+202E (RIGHT-TO-LEFT OVERRIDE)"
// expect: parse-bidi-format-character at 13:17 "U+202E (RIGHT-TO-LEFT OVERRIDE)"
// expect: flatten-undefined-name at 13:15 "is not declared"
model BidiOverride
  Real 'x'(start = 1, fixed = true);
equation
  // k ‮= 0 ;
  der('x') = -'x‮';
end BidiOverride;
