// Near miss of restart-unsupported-nonlinear (fractional impulse order): a
// cubic law in a multiplier that is not impulsive. A mass pushed by F locks
// onto a belt at speed vb when it reaches it (as corpus/good/velocity_lock.mo)
// and the lock force is f = lambda + lambda^3. The root fact v - vb = 0 of
// the event is the new constraint itself, so the restart is continuous: no
// variable is impulsive, the cube has order 0, and the rational offsets
// (solved because the array has a power of a dependent variable) are the
// integer ones. After the lock f = F = 2: lambda = 1.
// (Compare corpus/flawed/restart/cubic_contact_law.mo: there lambda is
// impulsive, and of lambda + lambda^3 the cube would lead.)
// status: good
// stage: simulation
model CubicLawWithoutImpulse "A mass locking onto a belt through a cubic force law"
  parameter Real m = 1 "mass (kg)";
  parameter Real F = 2 "pushing force (N)";
  parameter Real vb = 1 "belt speed (m/s)";
  Real x(start = 0, fixed = true) "position";
  Real v(start = 0, fixed = true) "velocity";
  Real f "lock force on the mass (opposing F)";
  Real lambda "multiplier of the lock";
  Boolean locked(start = false);
equation
  der(x) = v;
  m*der(v) = F - f;
  f = lambda + lambda^3;
  if locked then
    v = vb;
  else
    lambda = 0;
  end if;
  when v - vb >= 0 then
    locked = true;
  end when;
  annotation(experiment(StopTime = 1));
end CubicLawWithoutImpulse;
