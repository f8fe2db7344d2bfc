// A sawtooth through an implicitly defined variable: x rises at unit
// speed, z follows from z^3 + z = x (the index-reduced equations are
// nonlinear in z), and x is reset to 0 when z passes 0.5, i.e. at
// x = 0.5^3 + 0.5 = 0.625: events every 0.625 s. The guard is followed on
// the interpolant through the Krawczyk enclosure of z.
// status: good
// stage: simulation
model ImplicitSawtooth "A reset triggered by an implicitly defined variable"
  Real x(start = 0, fixed = true);
  Real z(start = 0);
equation
  der(x) = 1;
  z^3 + z = x;
  when z > 0.5 then
    reinit(x, 0);
  end when;
  annotation(experiment(StopTime = 2));
end ImplicitSawtooth;
