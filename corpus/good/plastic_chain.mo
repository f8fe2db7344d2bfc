// A plastic chain of three equal masses: ball 1 (speed v0) reaches ball 2,
// which rests against ball 3, at t = d/v0. The plastic impact of balls 1
// and 2 (contact c12 closes, v1 = v2 = v0/2, momentum kept) makes ball 2
// approach ball 3 at once, so contact c23 closes at the same instant: a
// second impulsive restart to v1 = v2 = v3 = v0/3 (the momentum average).
// One event of two restarts; all three then move together, the contact
// forces 0, to the stop time: x3(T) = v0/3*(T - d/v0).
// status: good
// stage: simulation
// expect: restart-impulsive at 38:3 "c12=false,c23=false -> c12=true,c23=false"
// expect: restart-impulsive at 41:3 "c12=false,c23=false -> c12=false,c23=true"
// expect: restart-impulsive at 41:3 "c12=true,c23=false -> c12=true,c23=true"
// expect: restart-impulsive at 38:3 "c12=false,c23=true -> c12=true,c23=true"
model PlasticChain "Three masses in a plastic chain of impacts"
  parameter Real m = 1 "mass of each ball";
  parameter Real v0 = 3 "speed of ball 1";
  parameter Real d = 0.75 "initial gap between balls 1 and 2";
  Real x1(start = -d, fixed = true), v1(start = v0, fixed = true) "ball 1";
  Real x2(start = 0, fixed = true), v2(start = 0, fixed = true) "ball 2";
  Real x3(start = 0, fixed = true), v3(start = 0, fixed = true) "ball 3";
  Real f12 "contact force of balls 1 and 2";
  Real f23 "contact force of balls 2 and 3";
  Boolean c12(start = false), c23(start = false) "contacts closed";
equation
  der(x1) = v1; m*der(v1) = -f12;
  der(x2) = v2; m*der(v2) = f12 - f23;
  der(x3) = v3; m*der(v3) = f23;
  if c12 then
    x2 - x1 = 0;
  else
    f12 = 0;
  end if;
  if c23 then
    x3 - x2 = 0;
  else
    f23 = 0;
  end if;
  when x1 - x2 >= 0 then
    c12 = true;
  end when;
  when x2 - x3 >= 0 then
    c23 = true;
  end when;
  annotation(experiment(StopTime = 1));
end PlasticChain;
