// A mass pushed by a constant force F locks onto a belt running at vb when
// its speed reaches the belt's: the guard is v - vb and the new constraint
// v = vb, so the root fact of the event is the constraint itself and the
// restart is continuous (seed 000, 4.2): the states carry over and the lock
// force takes the whole push, f = F = 2 N. First-order normalisation writes
// v as der(x); the guard is rewritten with it (mode_change/normalize.h), so
// the root fact is still recognised (before issue 17 this was reported
// impulsive, and a standard tool was said to violate v - vb = 0, which
// holds at the event). The mass starts at rest: the lock at t = 0.5 s.
// status: good
// stage: simulation
model VelocityLock "A mass that locks onto a moving belt"
  parameter Real m = 1 "mass (kg)";
  parameter Real F = 2 "pushing force (N)";
  parameter Real vb = 1 "belt speed (m/s)";
  Real x(start = 0, fixed = true) "position";
  Real v(start = 0, fixed = true) "velocity";
  Real f "lock force on the mass (opposing F)";
  Boolean locked(start = false);
equation
  der(x) = v;
  m*der(v) = F - f;
  if locked then
    v = vb;
  else
    f = 0;
  end if;
  when v - vb >= 0 then
    locked = true;
  end when;
  annotation(experiment(StopTime = 1));
end VelocityLock;
