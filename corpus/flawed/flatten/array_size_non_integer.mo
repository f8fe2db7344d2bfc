// An array size that is a Real parameter, not an integer.
// status: flawed
// expect: flatten-array-size at 6:10 "must be an integer known when flattening"
model ArraySizeNonInteger
  parameter Real n = 2.5;
  Real x[n];
equation
  der(x) = -x;
end ArraySizeNonInteger;
