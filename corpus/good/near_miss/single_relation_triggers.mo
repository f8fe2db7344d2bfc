// Near miss of modes-unsupported-trigger: the two relations of the flawed
// model in separate when/elsewhen branches, a Boolean defined by one relation
// used as a condition, a negated relation, and a time event.
// status: good
model SingleRelationTriggers
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  Boolean above;
  discrete Integer n(start = 0, fixed = true);
  Boolean late(start = false, fixed = true);
  Boolean low(start = true, fixed = true);
equation
  der(x) = 1;
  der(y) = 2;
  above = y > 1.5;
  when x > 1 then
    n = 1;
  elsewhen above then
    n = 2;
  end when;
  when time >= 0.5 then
    late = true;
  end when;
  when not (x < 2) then
    low = false;
  end when;
end SingleRelationTriggers;
