// A switching if-equation without an else branch.
// status: flawed
// expect: flatten-unbalanced-if at 11:3 "no else branch"
// expect: modes-unbalanced at 6:1 "=false has 1 equation for 2 unknowns"
// expect: structure-underdetermined at 6:1 "x, u have no determining equation"
model IfWithoutElse
  Real x(start = 1, fixed = true);
  Real u;
equation
  der(x) = -u;
  if x > 0.5 then
    u = x;
  end if;
end IfWithoutElse;
