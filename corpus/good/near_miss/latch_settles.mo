// Near miss of modes-logic-unsettled (./../../flawed/modes/latch_toggles.mo):
// the same latch reading its own left limit on one side only,
// y = not pre(y) and x > 1 or pre(y) and x > 0.5: with pre(y) = y the
// equation holds, so every event iteration settles after one step; and the
// two Booleans of ../../flawed/modes/discrete_algebraic_loop.mo with b no
// longer reading a: a chain, evaluated b first.
// status: good
// stage: modes
model LatchSettles "A latch that settles"
  Real x(start = 0, fixed = true);
  Boolean y(start = false);
  Boolean a;
  Boolean b;
equation
  der(x) = if y then -1 else 1;
  y = not pre(y) and x > 1 or pre(y) and x > 0.5;
  a = not b and x > 1;
  b = x > 2;
  annotation(experiment(StopTime = 3));
end LatchSettles;
