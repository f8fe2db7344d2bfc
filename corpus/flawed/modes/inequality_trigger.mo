// A when-condition `x <> 1` on a continuous variable: like an equality, it has
// no zero crossing that locates the event.
// status: flawed
// expect: modes-unsupported-trigger at 10:8 "'x <> 1'"
model InequalityTrigger
  Real x(start = 0, fixed = true);
  Boolean moved(start = false, fixed = true);
equation
  der(x) = 1;
  when x <> 1 then
    moved = true;
  end when;
end InequalityTrigger;
