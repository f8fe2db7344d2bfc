// Near miss of flawed/structure/pendulum_inconsistent_start.mo: the fixed
// start position lies on the circle (0.6, -0.8), so the consistency
// conditions hold; index 3 does not exceed the default bound.
// status: good
model PendulumConsistentStart
  parameter Real L = 1, g = 9.81, m = 1;
  Real x(start = 0.6, fixed = true);
  Real y(start = -0.8, fixed = true);
  Real vx(start = 0), vy(start = 0);
  Real lambda;
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -lambda*x;
  m*der(vy) = -lambda*y - m*g;
  x^2 + y^2 = L^2;
end PendulumConsistentStart;
