// Near miss of flatten-reinit-not-state: the reset is applied to the velocity,
// which appears differentiated, and the kinetic energy follows it.
// status: good
model ReinitState
  parameter Real m = 1;
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
  Real ekin;
equation
  der(h) = v;
  der(v) = -9.81;
  ekin = 0.5*m*v^2;
algorithm
  when h <= 0 then
    reinit(v, -0.9*pre(v));
  end when;
end ReinitState;
