// Near miss of flatten-unbalanced-if: a switching if-equation whose three
// branches (if, elseif, else) each hold two equations, and an if-equation on a
// parameter, without else and with unequal branches, which Modelica allows.
// status: good
model BalancedIf
  parameter Boolean withLoss = false;
  Real x(start = 1, fixed = true);
  Real u;
  Real w;
  Real loss;
equation
  der(x) = -u;
  if x > 0.5 then
    u = x;
    w = 1;
  elseif x > 0.2 then
    u = 0.5*x;
    w = 2;
  else
    u = 0;
    w = 0;
  end if;
  loss = 0;
  if withLoss then
    assert(u >= 0, "no negative flow");
  end if;
end BalancedIf;
