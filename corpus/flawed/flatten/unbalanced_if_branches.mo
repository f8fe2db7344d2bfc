// A switching if-equation whose branches hold two and one equations.
// status: flawed
// expect: flatten-unbalanced-if at 14:3 "different numbers of equations"
// expect: modes-unbalanced at 7:1 "=true has 4 equations for 3 unknowns"
// expect: structure-overdetermined at 12:3 "4 equations for the 3 variables x, u, w"
// expect: restart-not-analysed at 14:6 "not analysed"
model UnbalancedIfBranches
  Real x(start = 1, fixed = true);
  Real u;
  Real w;
equation
  der(x) = -u;
  w = 2*u;
  if x > 0.5 then
    u = x;
    w = 1;
  else
    u = 0;
  end if;
end UnbalancedIfBranches;
