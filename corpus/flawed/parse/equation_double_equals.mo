// An equation written with the comparison `==` instead of `=`.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 10:5 "'=='"
model EquationDoubleEquals
  Real x(start = 1);
  Real y;
equation
  der(x) = -x;
  y == 2*x;
end EquationDoubleEquals;
