// A Boolean defined by its own negated left limit while x stays below 1:
// y = not pre(y) or x > 1. At the start pre(y) = false gives y = true, then
// pre(y) = true gives y = false, and so on: the event iteration of
// Modelica 3.6, 8.6 never settles.
// status: flawed
// stage: modes
// expect: modes-logic-unsettled at 13:3 "the event iteration cycles through y=false -> y=true -> y=false"
model LatchToggles "A latch that negates itself"
  Real x(start = 0, fixed = true);
  Boolean y(start = false);
equation
  der(x) = if y then 1 else 2;
  y = not pre(y) or x > 1;
  annotation(experiment(StopTime = 2));
end LatchToggles;
