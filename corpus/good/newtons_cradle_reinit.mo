// Newton's cradle, three equal balls on a line, elastic impacts written with
// reinit: ball 1 reaches ball 2 (resting against ball 3) at t = d/v0; the
// exchange of velocities with ball 2 at once makes ball 2 approach ball 3,
// so the second impact happens at the same instant (a cascade, one event of
// two restarts). After it the velocities are (0, 0, v0): ball 3 leaves at
// v0, x3(T) = v0*(T - d/v0), and the run reaches the stop time. The impact
// conditions combine the closed gap with the approach (`and`), so a contact
// that stays closed at rest fires nothing.
// status: good
// stage: simulation
model NewtonsCradleReinit "Newton's cradle: elastic impacts by reinit"
  parameter Real v0 = 2 "speed of ball 1";
  parameter Real d = 0.5 "initial gap between balls 1 and 2";
  Real x1(start = -d, fixed = true), v1(start = v0, fixed = true) "ball 1";
  Real x2(start = 0, fixed = true), v2(start = 0, fixed = true) "ball 2";
  Real x3(start = 0, fixed = true), v3(start = 0, fixed = true) "ball 3";
equation
  der(x1) = v1;
  der(v1) = 0;
  der(x2) = v2;
  der(v2) = 0;
  der(x3) = v3;
  der(v3) = 0;
  when x1 >= x2 and v1 > v2 then
    reinit(v1, v2);
    reinit(v2, v1);
  end when;
  when x2 >= x3 and v2 > v3 then
    reinit(v2, v3);
    reinit(v3, v2);
  end when;
  annotation(experiment(StopTime = 1));
end NewtonsCradleReinit;
