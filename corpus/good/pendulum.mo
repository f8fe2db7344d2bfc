// The Cartesian pendulum: index 3, two degrees of freedom; the position
// constraint and its derivative (tangency) are consistency conditions.
// status: good
// Expected once the structure stage exists: index 3, dof 2, consistency
// conditions x^2 + y^2 = L^2 and x*vx + y*vy = 0.
model Pendulum
  parameter Real L = 1, g = 9.81, m = 1;
  Real x(start = 1, fixed = true), y(start = 0);
  Real vx(start = 0), vy(start = 0, fixed = true);
  Real lambda;
equation
  der(x) = vx;
  der(y) = vy;
  m*der(vx) = -lambda*x;
  m*der(vy) = -lambda*y - m*g;
  x^2 + y^2 = L^2;
end Pendulum;
