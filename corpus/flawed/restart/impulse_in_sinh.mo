// The ball on a rope with the rope force written through sinh: at the
// capture the force coefficient lambda must be impulsive (order 1), but it
// sits inside a non-polynomial function, so the rescaling of seed 001
// (axiom 112) cannot give a restart; modeaudit names the equation.
// status: flawed
// expect: restart-unsupported-nonlinear at 21:3 "lambda is impulsive of order 1 inside a non-polynomial function"
model ImpulseInSinh
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  Real x(start = 0.4, fixed = true);
  Real y(start = -0.74905, fixed = true);
  Real vx(start = 2, fixed = true);
  Real vy(start = -0.019, fixed = true);
  Real lambda "force coefficient";
  Boolean taut(start = false);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  // the radial force through sinh: an impulse cannot pass through it
  der(vy) = -sinh(lambda)*y - g;
  if taut then
    x^2 + y^2 = L^2;
  else
    lambda = 0;
  end if;
  when x^2 + y^2 >= L^2 then
    taut = true;
  end when;
end ImpulseInSinh;
