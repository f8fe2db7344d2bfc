// A time command tightens the rope (seed 000, section 5.3; seed 001,
// Appendix D.2): at t = 0.1 s the ball is at q- = (0.5, 0), inside the circle.
// The event implies no equality on the state, so position continuity and the
// circle x^2 + y^2 = L^2 cannot both hold: no good rescaling exists and the
// restart is undetermined; a law for reeling or compliance is missing.
// Corollary 1 (seed 001, Appendix D.2) finds the restart positions
// determined by the array and the velocities not.
// status: flawed
// stage: simulation
// expect: restart-undetermined at 32:3 "vx, vy have no determining relation"
// expect: sim-stopped-early at 12:1 "stopped at t = 0.1, before the stop time 0.2: undetermined-restart"
model CupAndBallTimeCommand
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  Real x(start = 0.5, fixed = true);
  Real y(start = 0.04905, fixed = true);
  Real vx(start = 0, fixed = true);
  Real vy(start = 0, fixed = true);
  Real lambda "force coefficient: the tension is m*L*lambda";
  Boolean taut(start = false);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - g;
  if taut then
    x^2 + y^2 = L^2;
    assert(lambda >= 0, "the rope can pull but not push");
  else
    lambda = 0;
  end if;
  when time >= 0.1 then
    taut = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end CupAndBallTimeCommand;
