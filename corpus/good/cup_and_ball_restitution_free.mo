// Ball on a rope with a coefficient of restitution e = 0.5 (seed 000,
// section 5.3): the ball rebounds inward and stays in free flight.
// status: good
// expect: flatten-restart-constraint at 30:5
// expect: restart-impulsive at 29:3 "through the transient mode taut=true"
// Expected once the restart stage exists: v+ = (0.2, 1.4) m/s, radial
// component -1, kinetic energy 1 J, angular momentum 1 preserved.
model CupAndBallRestitutionFree
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
    x*vx + y*vy = -e*(pre(x)*pre(vx) + pre(y)*pre(vy));
  end when;
  annotation(experiment(StopTime = 0.2));
end CupAndBallRestitutionFree;
