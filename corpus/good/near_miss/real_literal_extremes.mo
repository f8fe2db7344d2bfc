// Near miss of corpus/flawed/parse/real_literal_out_of_range.mo: the largest
// double, a subnormal, and zeros written with huge exponents are in range.
// status: good
model RealLiteralExtremes
  parameter Real big = 1.7976931348623157e308;
  parameter Real tiny = 4.9e-324;
  parameter Real zero = 0.000e-99999;
  parameter Real zero2 = 0e400;
  Real y(start = 1, fixed = true);
equation
  der(y) = -(1 + zero + zero2)*y + 0*big*tiny;
end RealLiteralExtremes;
