// Near miss of flatten-restart-constraint (and of flatten-continuous-assigned-in-when):
// the cup-and-ball with a coefficient of restitution written as a restart
// constraint in an equation when-clause (input-language.md, extension 1).
// The extension is intended: the note fires and nothing else does.
// status: good
// expect: flatten-restart-constraint at 30:5
model RestartConstraint "Ball on a rope: capture with restitution"
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  parameter Real e = 0.5 "coefficient of restitution";
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
    taut = true;
    x*vx + y*vy = -e*(pre(x)*pre(vx) + pre(y)*pre(vy));
  end when;
  annotation(experiment(StopTime = 0.2));
end RestartConstraint;
