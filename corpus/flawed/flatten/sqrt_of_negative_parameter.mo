// sqrt() of a negative parameter: a Real model must not silently get the
// imaginary unit into its equations.
// status: flawed
// expect: flatten-invalid-value at 11:11 "sqrt"
model SqrtOfNegativeParameter
  parameter Real k = -4 "stiffness, negative by mistake";
  Real x(start = 1, fixed = true);
  Real w;
equation
  der(x) = -w*x;
  w = 2 + sqrt(k);
end SqrtOfNegativeParameter;
