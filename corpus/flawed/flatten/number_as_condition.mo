// A Real used as the condition of an if-equation.
// status: flawed
// expect: flatten-type-mismatch at 9:6 "'x' is not a Boolean"
model NumberAsCondition
  Real x(start = 1);
  Real u;
equation
  der(x) = -u;
  if x then
    u = x;
  else
    u = 0;
  end if;
end NumberAsCondition;
