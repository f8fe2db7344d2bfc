// The String attribute `unit` given a number.
// status: flawed
// expect: flatten-type-mismatch at 5:42 "unit"
model AttributeWrongKind
  Real v(start = 1, fixed = true, unit = 1);
equation
  der(v) = -v;
end AttributeWrongKind;
