// A valve: the open mode states one equation for the flow, the closed mode two.
// The mode on=true is balanced, the mode on=false has an equation too many.
// status: flawed
// expect: flatten-unbalanced-if at 19:3 "different numbers of equations"
// expect: modes-unbalanced at 8:1 "mode on=false has 3 equations for 2 unknowns"
// expect: structure-overdetermined at 15:3 "mode on=false is overdetermined"
// expect: restart-not-analysed at 16:3 "not analysed"
model UnbalancedOneMode
  parameter Real A = 1;
  parameter Real k = 2;
  Real h(start = 1, fixed = true) "tank level";
  Real q "outflow";
  Boolean on(start = true, fixed = true) "valve open";
equation
  A*der(h) = -q;
  when h < 0.2 then
    on = false;
  end when;
  if on then
    q = k*h;
  else
    q = 0;
    der(h) = 0;
  end if;
end UnbalancedOneMode;
