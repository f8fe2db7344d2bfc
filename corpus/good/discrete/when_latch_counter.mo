// A when-clause on a Boolean latched by its own left limit,
// y = pre(y) and x < 1.5 or x < 0.5, counting the rises of y: y rises only
// from y = false, where its equation reads x < 0.5, so the counter's guard
// is 0.5 - x, and it fires with the latch's own transition at t = 2.5 and
// 4.5 (y is true from the start: no rise at t = 0). Final n = 2.
// status: good
// stage: simulation
model WhenLatchCounter "Counting the rises of a latch"
  Real x(start = 0, fixed = true);
  Boolean y(start = false);
  Integer n(start = 0);
equation
  der(x) = if y then 1 else -1;
  y = pre(y) and x < 1.5 or x < 0.5;
  when y then
    n = pre(n) + 1;
  end when;
  annotation(experiment(StopTime = 5));
end WhenLatchCounter;
