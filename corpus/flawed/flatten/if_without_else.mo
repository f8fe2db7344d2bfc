// A switching if-equation without an else branch.
// status: flawed
// expect: flatten-unbalanced-if at 10:3 "no else branch"
// expect: modes-unbalanced at 5:1 "=false has 1 equation for 2 unknowns"
model IfWithoutElse
  Real x(start = 1, fixed = true);
  Real u;
equation
  der(x) = -u;
  if x > 0.5 then
    u = x;
  end if;
end IfWithoutElse;
