// An equation uses a variable that is not declared (a typo: `vel` for `v`).
// status: flawed
// expect: flatten-undefined-name at 9:13 "'vel' is not declared"
model UndefinedVariable
  Real x(start = 1);
  Real v(start = 0);
equation
  der(x) = v;
  der(v) = -vel;
end UndefinedVariable;
