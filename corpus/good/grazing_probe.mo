// A probe moving at unit speed at height 1 over a bump whose top,
// 1 - (x - 0.5)^2, reaches the probe's height at x = 0.5 only: the contact
// guard touches zero at t = 0.5 without crossing (grazing). No event fires
// (the count stays 0); the simulation says so (sim-grazing-guard), so the
// knife-edge contact is not passed over in silence.
// status: good
// stage: simulation
// expect: sim-grazing-guard at 16:3 "touches zero at t = 0.5"
model GrazingProbe "A probe grazing the top of a bump"
  parameter Real h = 1 "height of the probe";
  Real x(start = 0, fixed = true) "position of the probe";
  Real n(start = 0, fixed = true) "contacts counted";
equation
  der(x) = 1;
  der(n) = 0;
  when 1 - (x - 0.5)^2 >= h then
    reinit(n, pre(n) + 1);
  end when;
  annotation(experiment(StopTime = 1));
end GrazingProbe;
