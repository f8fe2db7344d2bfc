// An implicit for-range whose uses subscript dimensions of different sizes
// (Modelica 3.6, 8.3.2.1): the range cannot be deduced.
// status: flawed
// expect: flatten-type-mismatch at 10:14 "subscripts a dimension of size 4 here and one of size 3 at 10:7"
model ImplicitRangeMismatch
  Real x[3];
  Real y[4] = {1, 2, 3, 4};
equation
  for i loop
    x[i] = y[i];
  end for;
end ImplicitRangeMismatch;
