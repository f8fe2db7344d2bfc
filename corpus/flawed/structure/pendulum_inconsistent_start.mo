// A Cartesian pendulum whose fixed start position is off the circle:
// x^2 + y^2 = 0.5 while the constraint demands L^2 = 1.
// status: flawed
// expect: structure-inconsistent-start at 17:3 "residual -0.5"
model PendulumInconsistentStart
  parameter Real L = 1, g = 9.81, m = 1;
  Real x(start = 0.5, fixed = true);
  Real y(start = 0.5, fixed = true);
  Real vx(start = 0), vy(start = 0);
  Real lambda;
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -lambda*x;
  m*der(vy) = -lambda*y - m*g;
  // the position constraint
  x^2 + y^2 = L^2;
end PendulumInconsistentStart;
