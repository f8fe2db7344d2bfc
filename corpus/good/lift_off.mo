// A block resting on the floor while a force k*time pulls it up: the floor
// force f = m*g - k*time is admissible (f >= 0, an assert of the contact
// mode) until it reaches 0 at t1 = m*g/k, where the block lifts off. At
// that instant the assert holds with equality; its margin at the mode's
// exit is zero to round-off, which is no violation (the boundary tolerance
// of event location). Afterwards x = k/(6 m) (t - t1)^3.
// status: good
// stage: simulation
model LiftOff "A block lifted off the floor by a growing force"
  parameter Real m = 1 "mass";
  parameter Real g = 9.81 "gravity";
  parameter Real k = 2.1 "growth of the pulling force";
  Real x(start = 0, fixed = true), v(start = 0, fixed = true);
  Real f "floor force";
  Boolean lifted(start = false);
equation
  der(x) = v;
  m*der(v) = f + k*time - m*g;
  if lifted then
    f = 0;
  else
    x = 0;
    assert(f >= 0, "the floor can push but not pull");
  end if;
  when f < 0 then
    lifted = true;
  end when;
  annotation(experiment(StopTime = 5));
end LiftOff;
