// reinit of the kinetic energy, which is computed from the velocity, not a state.
// status: flawed
// expect: flatten-reinit-not-state at 15:5 "'ekin' does not appear differentiated"
model ReinitNotState
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
    reinit(ekin, 0.81*pre(ekin));
  end when;
end ReinitNotState;
