// A subscript beyond the size of the array.
// status: flawed
// expect: flatten-type-mismatch at 9:18 "subscript 4 is out of range 1..3"
model SubscriptOutOfRange
  Real x[3](each start = 1);
equation
  der(x[1]) = -x[1];
  der(x[2]) = -x[2];
  der(x[3]) = -x[4];
end SubscriptOutOfRange;
