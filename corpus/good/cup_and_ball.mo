// Ball on a rope (seed 000, section 5.2; seed 001, section 2): free flight,
// then the rope becomes taut and captures the ball inelastically.
// Unit mass, L = 1 m, g = 9.81 m/s^2, q0 = (0.4, -0.74905), v0 = (2, -0.019).
// status: good
// expect: restart-impulsive at 38:3 "lambda of order 1"
// The energy E is declared with rate 0 (it holds in both modes, in the taut
// one on its consistent states) and both E and the kinetic energy K as
// nonincreasing at events; the angular momentum is found without a
// declaration. Numbers (seed 000, 5.2; tests/unit/verification): event at t = 0.1 s with
// q- = (0.6, -0.8), v- = (2, -1); impulsive restart with lambda of order 1,
// alpha = 2, v+ = (0.8, 0.6); lambda+ = 8.848 (admissible); angular momentum
// x*vy - y*vx = 1 before and after; kinetic energy 2.5 J -> 0.5 J; after 0.1 s
// taut, theta = 0.712977020833, omega = 0.380685005685 (tolerance 1e-8).
model CupAndBall "Ball on a rope: free flight and capture"
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  Real x(start = 0.4, fixed = true);
  Real y(start = -0.74905, fixed = true);
  Real vx(start = 2, fixed = true);
  Real vy(start = -0.019, fixed = true);
  Real lambda "force coefficient: the tension is m*L*lambda";
  Boolean taut(start = false);
  Real E = 0.5*(vx^2 + vy^2) + g*y "energy per unit mass"
    annotation(__ModeAudit(rate = 0, atEvents = "nonincreasing"));
  Real K = 0.5*(vx^2 + vy^2) "kinetic energy per unit mass"
    annotation(__ModeAudit(atEvents = "nonincreasing"));
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
  end when;
  annotation(experiment(StopTime = 0.2));
end CupAndBall;
