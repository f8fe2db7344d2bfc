// A level switch on a level the model defines only implicitly: the tank's
// volume V is the state and its level h follows from the vessel's shape,
// V = A*h + B*h^3, which the simulation cannot solve for h in closed form
// (the index-reduced equations are nonlinear in h). The inflow valve closes
// when the level passes 1 m and opens again below 0.5 m; the guards and the
// level assert are followed on the integrator's interpolant through the
// interval Newton (Krawczyk) enclosure of h.
// status: good
// stage: simulation
model TankLevelSwitch "A level switch on an implicitly defined level"
  parameter Real A = 1 "cross-section at the bottom (m2)";
  parameter Real B = 0.5 "widening of the vessel (m-1)";
  parameter Real qin = 0.8 "inflow with the valve open (m3/s)";
  parameter Real k = 0.3 "outflow per metre of level (m2/s)";
  Real V(start = 0.1, fixed = true) "volume (m3)";
  Real h(start = 0.1) "level (m)";
  Boolean filling(start = true);
equation
  V = A*h + B*h^3;
  der(V) = (if filling then qin else 0) - k*h;
  when h > 1 then
    filling = false;
  end when;
  when h < 0.5 then
    filling = true;
  end when;
  assert(h >= 0, "the level stays nonnegative");
  annotation(experiment(StopTime = 10));
end TankLevelSwitch;
