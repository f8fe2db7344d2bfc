// Ball on a rope whose restitution law has no coefficient: e is declared
// with bounds 0 <= e <= 1 but no value (seed 000, section 5.3). The restart
// depends on it: at the seed's event (q- = (0.6, -0.8), v- = (2, -1)) the
// bounds allow every impulse alpha in [2, 4]; alpha = 2 (e = 0) is the
// capture, which the taut mode admits, alpha = 4 (e = 1) the elastic
// rebound into free flight. Near miss: cup_and_ball_restitution_free.mo
// (e = 0.5).
// status: flawed
// stage: simulation
// expect: flatten-restart-constraint at 36:5
// expect: restart-impulsive at 35:3 "through the transient mode taut=true"
// expect: verify-impact-law-missing at 35:3 "0 <= e <= 1"
// expect: sim-stopped-early at 14:1 "undetermined-restart"
model CupAndBallUnknownRestitution
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  parameter Real e(min = 0, max = 1) "coefficient of restitution: not known";
  Real x(start = 0.4, fixed = true);
  Real y(start = -0.74905, fixed = true);
  Real vx(start = 2, fixed = true);
  Real vy(start = -0.019, fixed = true);
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
  when x^2 + y^2 >= L^2 then
    x*vx + y*vy = -e*(pre(x)*pre(vx) + pre(y)*pre(vy));
  end when;
  annotation(experiment(StopTime = 0.2));
end CupAndBallUnknownRestitution;
