// An array size computed from parameters divides by zero (cells = 0 in the
// binding of dx): an input error at the division, not an internal error.
// status: flawed
// expect: flatten-invalid-value at 8:23 "division by zero"
model ArraySizeDivisionByZero
  parameter Integer cells = 0;
  parameter Real L = 1;
  parameter Real dx = L/cells;
  Real T[integer(L/dx)](each start = 300, each fixed = true);
equation
  der(T) = -T;
end ArraySizeDivisionByZero;
