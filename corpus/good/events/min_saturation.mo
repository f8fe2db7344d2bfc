// A rate limited by min(): der(x) = min(1, 2 - x) from x(0) = 0. The rate
// is 1 until x = 1 (t = 1), where the arguments of min() cross: an event
// (Modelica 3.6, 3.7.1); then der(x) = 2 - x, so x = 2 - exp(-(t - 1)).
// max() on the same arguments shares the crossing: der(y) = max(1, 2 - x)
// is 2 - x first, then 1.
// Expected numbers (closed form): one event, at t = 1; x(2) = 2 - exp(-1)
// = 1.63212055882856; y(2) = (2 t - t^2/2 on [0, 1]: 1.5) + 1 = 2.5.
// status: good
// stage: simulation
model MinSaturation "min() and max() of a state: an event where the arguments cross"
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
equation
  der(x) = min(1, 2 - x);
  der(y) = max(1, 2 - x);
  annotation(experiment(StopTime = 2));
end MinSaturation;
