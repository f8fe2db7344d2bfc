// A switch written as a relation inside the equation, der(x) = if x > 1
// then -1 else 1: at x = 1 each mode's flow points into the other. The
// event iteration at t = 0.5 goes (x > 1)=false -> true -> false with the
// same state: a cycle within one instant, reported as chattering that names
// the modes of the cycle (the model defines no motion on the surface).
// status: good
// stage: simulation
// expect: sim-zeno at 9:1 "the event iteration cycles through the modes '(x > 1)=false' -> '(x > 1)=true'"
model SlidingRelation "A switch without hysteresis written as a relation"
  Real x(start = 0.5, fixed = true);
equation
  der(x) = if x > 1 then -1 else 1;
  annotation(experiment(StopTime = 2));
end SlidingRelation;
