// A function that divides by zero for the argument it is called with: the
// finding is at the division, with the call and its argument in a note.
// status: flawed
// expect: flatten-invalid-value at 13:10 "division by zero"
model FunctionDivisionByZero
  function inv
    input Real x;
    output Real y;
  protected
    Real d;
  algorithm
    d := x - 1;
    y := 1/d;
  end inv;
  parameter Real p = inv(1);
  Real x(start = 1, fixed = true);
equation
  der(x) = -p*x;
end FunctionDivisionByZero;
