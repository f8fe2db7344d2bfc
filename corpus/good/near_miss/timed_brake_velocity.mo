// Near miss of restart-position-jump: a brake locks the wheel's speed at
// t = 0.1 s (v = 0 while v- = 0.2 m/s). A velocity can jump under a finite
// impulse: the brake force is impulsive of order 1, v+ = 0 and the position
// is kept (x+ = x- = 0.32); the finding is the impulsive restart only.
// status: good
// stage: simulation
// expect: restart-impulsive at 22:3 "f of order 1"
model TimedBrakeVelocity "A brake that stops a mass at a time event"
  parameter Real m = 1 "mass (kg)";
  Real x(start = 0.3, fixed = true) "position";
  Real v(start = 0.2, fixed = true) "velocity";
  Real f "brake force";
  Boolean braked(start = false);
equation
  der(x) = v;
  m*der(v) = -f;
  if braked then
    v = 0;
  else
    f = 0;
  end if;
  when time >= 0.1 then
    braked = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end TimedBrakeVelocity;
