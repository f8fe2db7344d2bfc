// An implicit for-range whose iterator subscripts nothing: no range can be
// deduced (Modelica 3.6, 8.3.2.1).
// status: flawed
// expect: flatten-type-mismatch at 8:7 "'for i' has no range, and 'i' is not used as a subscript"
model ImplicitRangeUnused
  Real x[3];
equation
  for i loop
    x = fill(i, 3);
  end for;
end ImplicitRangeUnused;
