// A short type whose array dimension is an integer literal too large for any
// integer type: refused as an array size, not an internal error.
// status: flawed
// expect: flatten-array-size at 5:21 "99999999999999999999"
type Samples = Real[99999999999999999999];

model ArraySizeShortClassOverflow
  Samples s;
equation
  der(s) = -s;
end ArraySizeShortClassOverflow;
