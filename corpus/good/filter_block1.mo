// FilterBlock1 of the Modelica reinit documentation (seed 004, section 6):
// the initial algorithm sets x := u, so der(x) = 0 at the start and y = 1
// throughout (checked once the simulation stage exists).
// status: good
block FilterBlock1 "First order filter block"
  parameter Real T = 1 "Time constant";
  parameter Real k = 1 "Gain";
  input Real u = 1;
  output Real y;
protected
  Real x;
equation
  der(x) = (u - x)/T;
  y = k*x;
initial algorithm
  x := u; // if x is u since der(x) = (u - x)/T
  annotation(experiment(StopTime = 10));
end FilterBlock1;
