// Near miss of singular_a_plus_b.mo: the same structure with a regular
// coefficient (a + b = 1, 2a + 3b = 2) is numerically regular.
// status: good
model RegularSum
  Real a, b;
equation
  a + b = 1;
  2*a + 3*b = 2;
end RegularSum;
