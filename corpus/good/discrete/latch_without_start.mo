// The hysteresis latch of ./hysteresis_latch.mo with no start value for y,
// and x starting between the thresholds. Without a start value pre(y) is
// false at the initial instant (Modelica 3.6, 8.6: the start attribute's
// default for a Boolean), so y = false and x < 0.5 is false: x falls first,
// and y rises when x passes 0.5 at t = 0.5. Had the initial mode been taken
// as y = true, x would rise to 1.5 first: the events fall at the same
// instants, but every direction is the opposite one, and x(4.8) would be
// 1.2 instead of 0.8.
// Expected numbers (piecewise linear, exact): events at t = 0.5 (y rises),
// 1.5 (y falls), 2.5, 3.5, 4.5, and x(4.8) = 0.8; tests/unit/simulation/
// discrete_logic_test.cpp checks them to 1e-9.
// status: good
// stage: simulation
model LatchWithoutStart "A pre() latch whose Boolean has no start value"
  Real x(start = 1, fixed = true);
  Boolean y;
equation
  der(x) = if y then 1 else -1;
  y = pre(y) and x < 1.5 or x < 0.5;
  annotation(experiment(StopTime = 4.8));
end LatchWithoutStart;
