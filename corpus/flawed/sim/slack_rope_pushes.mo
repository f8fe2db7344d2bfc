// A ball on a taut rope started above the pivot at rest, q = (0.6, 0.8),
// v = 0: the taut mode's coefficient is lambda = (v.v - g y)/L^2 = -7.848,
// so the rope would have to push. The model has no transition out of the
// taut mode, so the simulation runs on in an inadmissible mode.
// status: flawed
// stage: simulation
// expect: sim-assert-violated at 24:5 "is violated at t = 0 in mode taut=true"
model SlackRopePushes
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  Real x(start = 0.6, fixed = true);
  Real y(start = 0.8, fixed = true);
  Real vx(start = 0);
  Real vy(start = 0, fixed = true);
  Real lambda "force coefficient: the tension is m*L*lambda";
  Boolean taut(start = true);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - g;
  if taut then
    x^2 + y^2 = L^2;
    assert(lambda >= 0, "the rope can pull but not push");
  else
    lambda = 0;
  end if;
  annotation(experiment(StopTime = 0.1));
end SlackRopePushes;
