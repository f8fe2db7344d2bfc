// A start value computed from in-range values that rounds to zero as an
// IEEE double: 1e-200*1e-200 (CLN had signalled an underflow, exit 3).
// status: flawed
// expect: flatten-invalid-value at 8:10 "the start value of 'y' is 1.0E-400, smaller than the smallest non-zero IEEE double"
// Near miss: corpus/good/near_miss/real_literal_extremes.mo.
model StartOutOfDoubleRange
  parameter Real small = 1e-200;
  Real y(start = small*small, fixed = true);
equation
  der(y) = -y;
end StartOutOfDoubleRange;
