// Near miss of modes-unbalanced: the valve of the flawed model with one
// equation for the outflow in each mode; both modes have 2 equations for 2
// unknowns.
// status: good
model ModesBalanced
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
  end if;
end ModesBalanced;
