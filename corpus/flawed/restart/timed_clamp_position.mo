// A clamp closes at t = 0.1 s and forces the position x = 0.1, while the
// mass, moving at 0.2 m/s from x = 0.3, is at x- = 0.32. The mode-change
// array has a formally good solution only at height 2, with the velocity
// impulsive of order 1 and the clamp force of order 2: it moves the mass
// at once. No finite impulse moves a position (seed 000, 5.3: such an event
// needs a reeling or compliance law), so the restart is not given and the
// simulation stops at the event (issue 17, item 4; before, the mass was
// moved instantly and the run ended with exit 0).
// status: flawed
// stage: simulation
// expect: restart-position-jump at 27:3 "moves the position x at once"
// expect: sim-stopped-early at 13:1 "stopped at t = 0.1, before the stop time 0.2: undetermined-restart"
model TimedClampPosition "A clamp that forces a position at a time event"
  parameter Real m = 1 "mass (kg)";
  Real x(start = 0.3, fixed = true) "position";
  Real v(start = 0.2, fixed = true) "velocity";
  Real f "clamp force";
  Boolean clamped(start = false);
equation
  der(x) = v;
  m*der(v) = -f;
  if clamped then
    x = 0.1;
  else
    f = 0;
  end if;
  when time >= 0.1 then
    clamped = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end TimedClampPosition;
