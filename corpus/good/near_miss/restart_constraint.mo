// Near miss of flatten-restart-constraint, flatten-continuous-assigned-in-when
// and restart-inconsistent: an elastic impact law (Newton, restitution 1) as
// a restart constraint (input-language.md, extension 1) with free flight as
// the continuation, so that law and target agree: the radial velocity is
// reversed through the transient taut mode (paper notes 7.2).
// status: good
// expect: flatten-restart-constraint at 31:5
// expect: restart-impulsive at 30:3 "through the transient mode taut=true"
model RestartConstraint "Ball on a rope: capture with restitution"
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  parameter Real e = 1 "coefficient of restitution";
  Real x(start = 0.4, fixed = true);
  Real y(start = -0.74905, fixed = true);
  Real vx(start = 2, fixed = true);
  Real vy(start = -0.019, fixed = true);
  Real lambda;
  Boolean taut(start = false, fixed = true);
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
end RestartConstraint;
