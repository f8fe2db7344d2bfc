// An array equation whose sides have different sizes.
// status: flawed
// expect: flatten-type-mismatch at 8:3 "shapes [3] and [2]"
model ArrayShapeMismatch
  Real x[3](each start = 1);
  Real y[2];
equation
  der(x) = y;
  y = {1, 2};
end ArrayShapeMismatch;
