// Ball on a rope with a coefficient of restitution e = 0.5 and the taut mode
// as target (seed 000, section 5.3): the restitution law q.v+ = -e q-.v- gives
// a radial velocity of -1 m/s, which contradicts the taut mode's tangency
// q.v = 0. The free mode is the admissible continuation (v+ = (0.2, 1.4)).
// status: flawed
// expect: flatten-restart-constraint at 31:5
// expect: restart-inconsistent at 29:3 "contradict mode taut=true"
model CupAndBallRestitutionTaut
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  parameter Real e = 0.5 "coefficient of restitution";
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
    taut = true;
    x*vx + y*vy = -e*(pre(x)*pre(vx) + pre(y)*pre(vy));
  end when;
  annotation(experiment(StopTime = 0.2));
end CupAndBallRestitutionTaut;
