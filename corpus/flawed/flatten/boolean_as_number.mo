// A Boolean used as a number in an equation.
// status: flawed
// expect: flatten-type-mismatch at 10:15 "'on' is Boolean; it cannot be used as a number"
model BooleanAsNumber
  Real x(start = 1);
  Real u;
  Boolean on;
equation
  on = x > 0.5;
  u = 2*x + 3*on;
  der(x) = -u;
end BooleanAsNumber;
