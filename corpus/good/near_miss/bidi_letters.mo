// Near miss of parse-bidi-format-character: right-to-left letters (Hebrew,
// Arabic) in a description and a comment carry their own direction and need
// no format character; nothing is reported.
// status: good
model BidiNearMiss "דעיכה"
  Real x(start = 1, fixed = true) "الحالة";
equation
  // שלום
  der(x) = -x;
end BidiNearMiss;
