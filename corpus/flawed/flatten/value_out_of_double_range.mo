// A parameter computed from in-range literals that leaves the range of an
// IEEE double: 1e200*1e200 would be infinity in every stage that computes
// with doubles (as a start value it had ended in "internal error: floating
// point overflow", exit 3).
// status: flawed
// expect: flatten-invalid-value at 9:22 "the value of 'big' is 1.0E400, larger than the largest IEEE double"
// Near miss: corpus/good/near_miss/real_literal_extremes.mo.
model ValueOutOfDoubleRange
  parameter Real big = 1e200*1e200;
  Real y(start = 1, fixed = true);
equation
  der(y) = -y/big;
end ValueOutOfDoubleRange;
