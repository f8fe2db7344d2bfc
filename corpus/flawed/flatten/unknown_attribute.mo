// A misspelt attribute in a modifier: `strat` for `start`.
// status: flawed
// expect: flatten-undefined-name at 5:10 "'x' has no attribute or component 'strat'"
model UnknownAttribute
  Real x(strat = 1);
equation
  der(x) = -x;
end UnknownAttribute;
