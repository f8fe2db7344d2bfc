// der(x) = -sign(x) from x = 1: x reaches 0 at t = 1, where sign() would
// change (an event, Modelica 3.6, 3.7.1); on both sides the flow points
// back at 0, so the new branch's crossing function is crossing at once: the
// operator chatters (a sliding motion the model does not define). Before
// the operators had their events the integrator's step size collapsed at
// t = 1 until the step limit stopped the run (limit-exceeded).
// Expected numbers: the run stops as chattering at t = 1.
// status: good
// stage: simulation
// expect: sim-zeno at 11:1 "an event-generating operator chatters: at t = 1 sign(x)"
model SignSliding "der(x) = -sign(x): a sliding motion at x = 0"
  Real x(start = 1, fixed = true);
equation
  der(x) = -sign(x);
  annotation(experiment(StopTime = 2));
end SignSliding;
