// A when-condition that combines a relation with an inequality test of
// continuous quantities (`<>`), which has no zero crossing to locate.
// status: flawed
// expect: modes-unsupported-trigger at 12:8 "not a relation, a combination of relations"
model AndTrigger
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  Boolean hit(start = false, fixed = true);
equation
  der(x) = 1;
  der(y) = 2;
  when x > 1 and y <> 1.5 then
    hit = true;
  end when;
end AndTrigger;
