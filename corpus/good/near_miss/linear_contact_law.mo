// Near miss of restart-unsupported-nonlinear (fractional impulse order):
// the mass of corpus/flawed/restart/cubic_contact_law.mo with a linear law
// f = 3*lambda. A constant factor does not change an order, so the impact is
// impulsive with f and lambda of integer order 1, and the restart is regular:
// v+ = 0, x+ = x-. Its array has no power of an impulsive variable, so the
// offsets are solved over the integers only. lambda = f/3 is resolved as a
// constant multiple of f (mode_change/normalize), so f carries the order.
// status: good
// stage: simulation
// expect: restart-impulsive at 28:3 "der(v) of order 1, f of order 1"
model LinearContactLaw "A mass hitting a stop through a linear force law"
  parameter Real m = 1 "mass (kg)";
  parameter Real g = 9.81 "gravity (m/s2)";
  Real x(start = 1, fixed = true) "height above the stop (m)";
  Real v(start = 0, fixed = true) "velocity (m/s)";
  Real f "contact force (N)";
  Real lambda "multiplier of the contact constraint";
  Boolean contact(start = false);
equation
  der(x) = v;
  m*der(v) = f - m*g;
  f = 3*lambda;
  if contact then
    x = 0;
  else
    lambda = 0;
  end if;
  when x <= 0 then
    contact = true;
  end when;
  annotation(experiment(StopTime = 1));
end LinearContactLaw;
