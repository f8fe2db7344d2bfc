// A switching if-equation without an else branch.
// status: flawed
// expect: flatten-unbalanced-if at 12:3 "no else branch"
// expect: modes-unbalanced at 7:1 "=false has 1 equation for 2 unknowns"
// expect: structure-underdetermined at 7:1 "x, u have no determining equation"
// expect: restart-not-analysed at 12:6 "not analysed"
model IfWithoutElse
  Real x(start = 1, fixed = true);
  Real u;
equation
  der(x) = -u;
  if x > 0.5 then
    u = x;
  end if;
end IfWithoutElse;
