// Newton's cradle with the impacts as restart constraints (extension 1,
// coefficient of restitution e = 1) and contact forces: each impact is
// impulsive through its transient contact mode (seed 001, section 9). Ball
// 1 reaches ball 2 at t = d/v0; the restart gives (0, v0, 0), whose values
// at once close the contact of balls 2 and 3 with approach speed v0: the
// second impulsive restart at the same instant gives (0, 0, v0). One event
// of two restarts; momentum is conserved by each; x3(T) = v0*(T - d/v0).
// status: good
// stage: simulation
// expect: flatten-restart-constraint at 32:5
// expect: flatten-restart-constraint at 35:5
// expect: restart-impulsive at 31:3 "through the transient mode c12=true,c23=false"
// expect: restart-impulsive at 34:3 "through the transient mode c12=false,c23=true"
model NewtonsCradleRestitution "Newton's cradle: impacts as restart constraints"
  parameter Real m = 1 "mass of each ball";
  parameter Real e = 1 "coefficient of restitution";
  parameter Real v0 = 2 "speed of ball 1";
  parameter Real d = 0.5 "initial gap between balls 1 and 2";
  Real x1(start = -d, fixed = true), v1(start = v0, fixed = true) "ball 1";
  Real x2(start = 0, fixed = true), v2(start = 0, fixed = true) "ball 2";
  Real x3(start = 0, fixed = true), v3(start = 0, fixed = true) "ball 3";
  Real f12 "contact force of balls 1 and 2";
  Real f23 "contact force of balls 2 and 3";
  Boolean c12(start = false), c23(start = false) "contact modes";
equation
  der(x1) = v1; m*der(v1) = -f12;
  der(x2) = v2; m*der(v2) = f12 - f23;
  der(x3) = v3; m*der(v3) = f23;
  if c12 then x2 - x1 = 0; else f12 = 0; end if;
  if c23 then x3 - x2 = 0; else f23 = 0; end if;
  when x1 - x2 >= 0 then
    v2 - v1 = -e*(pre(v2) - pre(v1));
  end when;
  when x2 - x3 >= 0 then
    v3 - v2 = -e*(pre(v3) - pre(v2));
  end when;
  annotation(experiment(StopTime = 1));
end NewtonsCradleRestitution;
