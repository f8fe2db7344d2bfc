// An array size computed from parameters divides by zero (cells = 0): the
// size is not a known integer, which is an input error, not an internal error.
// status: flawed
// expect: flatten-array-size at 9
model ArraySizeDivisionByZero
  parameter Integer cells = 0;
  parameter Real L = 1;
  parameter Real dx = L/cells;
  Real T[integer(L/dx)](each start = 300, each fixed = true);
equation
  der(T) = -T;
end ArraySizeDivisionByZero;
