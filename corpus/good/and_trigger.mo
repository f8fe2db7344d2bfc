// A when-condition that combines two relations with `and`: its guard is the
// smaller of the two guards, min(x - 1, y - 1.5), and the event fires when
// the whole condition becomes true: y > 1.5 from t = 0.75, x > 1 from
// t = 1, so hit becomes true at t = 1 (tests/unit/simulation/
// event_iteration_test.cpp).
// status: good
// stage: simulation
model AndTrigger
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  Boolean hit(start = false, fixed = true);
equation
  der(x) = 1;
  der(y) = 2;
  when x > 1 and y > 1.5 then
    hit = true;
  end when;
  annotation(experiment(StopTime = 2));
end AndTrigger;
