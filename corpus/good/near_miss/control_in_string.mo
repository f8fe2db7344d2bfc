// Near miss of parse-invalid-encoding: control characters (a tab, a bell 0x07)
// inside string literals, where they are allowed, and a form feed between
// two declarations, which is white space.
// status: good
model ControlInString "a tab:	here, a bell: here"
  Real x(start = 1, fixed = true) "state	with tab";

  Real y;
equation
  der(x) = -x;
  y = 2*x;
end ControlInString;
