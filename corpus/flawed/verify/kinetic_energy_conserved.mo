// The rope's capture (seed 000, section 5.2) with the kinetic energy
// declared conserved at events. The capture is inelastic: the restart
// system gives the jump -(x*vx + y*vy)^2/(2*(x^2 + y^2)) in the left limits,
// negative whenever the ball arrives with a radial velocity (2.5 J -> 0.5 J
// at the seed's event). Near miss: corpus/good/cup_and_ball.mo declares it
// nonincreasing.
// status: flawed
// expect: restart-impulsive at 34:3 "lambda of order 1"
// expect: verify-jump-violated at 22:16 "K is declared conserved at events"
model KineticEnergyConserved "Capture with the kinetic energy wrongly declared conserved"
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
    annotation(__ModeAudit(atEvents = "conserved"));
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
end KineticEnergyConserved;
