// A hysteresis written as a latch on its own left limit:
// y = pre(y) and x < 1.5 or x < 0.5. While y is true x rises at rate 1 and
// y falls when x passes 1.5; while y is false x falls and y rises when x
// passes 0.5. The guards follow from the Boolean equation with pre(y) fixed
// to the mode's value: leaving y = true is x >= 1.5 (guard x - 1.5), leaving
// y = false is x < 0.5 (guard 0.5 - x). Once the threshold x < 0.5 was taken
// for both directions and the run reported chattering at t = 0.5.
// Expected numbers (piecewise linear, exact): events at t = 1.5, 2.5, 3.5,
// 4.5, the same as ./hysteresis_when.mo (tests/unit/simulation/
// discrete_logic_test.cpp checks both to 1e-9).
// status: good
// stage: simulation
model HysteresisLatch "A hysteresis as a pre() latch"
  Real x(start = 0, fixed = true);
  Boolean y(start = false);
equation
  der(x) = if y then 1 else -1;
  y = pre(y) and x < 1.5 or x < 0.5;
  annotation(experiment(StopTime = 5));
end HysteresisLatch;
