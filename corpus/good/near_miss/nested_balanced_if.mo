// Near miss of flatten-unbalanced-if: if-equations nested two deep, every
// branch of each holding one equation for u. Every mode has 2 equations for
// 2 unknowns.
// status: good
model NestedBalancedIf
  Real x(start = 1, fixed = true);
  Real u;
equation
  der(x) = -u;
  if x > 0.5 then
    if x > 0.8 then
      u = 2*x;
    else
      u = x;
    end if;
  else
    u = 0;
  end if;
end NestedBalancedIf;
