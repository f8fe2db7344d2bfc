// An array of 10^12 elements: refused instead of exhausting memory.
// status: flawed
// expect: flatten-array-size at 5:10 "1000000000000"
model ArraySizeAbsurd
  Real x[1000000000000];
equation
  for i in 1:1000000000000 loop
    der(x[i]) = -x[i];
  end for;
end ArraySizeAbsurd;
