// A when-condition that is an equality of continuous quantities: it has no zero crossing.
// status: flawed
// expect: modes-unsupported-trigger at 9:8 "for equality"
model EqualityTrigger
  Real x(start = 0, fixed = true);
  Boolean reached(start = false, fixed = true);
equation
  der(x) = 1;
  when x == 1 then
    reached = true;
  end when;
end EqualityTrigger;
