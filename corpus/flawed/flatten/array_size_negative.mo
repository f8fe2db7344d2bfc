// An array size computed from parameters comes out negative.
// status: flawed
// expect: flatten-array-size at 7:10 "array size -1 of 'x' is outside 0.."
model ArraySizeNegative
  parameter Integer n = 2;
  parameter Integer m = 3;
  Real x[n - m];
equation
  for i in 1:n - m loop
    der(x[i]) = -x[i];
  end for;
end ArraySizeNegative;
