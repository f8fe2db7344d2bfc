// Seed 000, section 4.1: a + b = 1 and 2a + 2b = 2 have a perfect structural
// matching but a singular Jacobian.
// status: flawed
// expect: structure-numerically-singular at 9:3 "rank 1 of 2"
model SingularSum
  Real a, b;
equation
  a + b = 1;
  2*a + 2*b = 2;
end SingularSum;
