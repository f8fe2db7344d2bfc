// The same name declared twice in one model.
// status: flawed
// expect: flatten-type-mismatch at 7:8 "'x' is declared twice"
model DuplicateDeclaration
  Real x(start = 1);
  Real y;
  Real x(start = 2);
equation
  der(x) = -x;
  y = x;
end DuplicateDeclaration;
