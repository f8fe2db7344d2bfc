// Real literals outside the range of an IEEE double, the range Modelica 3.6
// section 2.4.1 recommends and that modeaudit computes in: 1e400 would be
// infinity and 1e-400 zero in every stage that computes with doubles (a
// start value of 1e400 had ended in "internal error: floating point
// overflow", a parameter of 1e400 was accepted without a word).
// status: flawed
// stage: parse
// expect: parse-syntax-error at 12:18 "the Real literal '1e400' is larger than the largest IEEE double"
// expect: parse-syntax-error at 13:22 "the Real literal '2.5E-400' is smaller than the smallest non-zero IEEE double"
// Near miss: corpus/good/near_miss/real_literal_extremes.mo.
model RealLiteralOutOfRange
  Real y(start = 1e400, fixed = true);
  parameter Real p = 2.5E-400;
equation
  der(y) = -p*y;
end RealLiteralOutOfRange;
