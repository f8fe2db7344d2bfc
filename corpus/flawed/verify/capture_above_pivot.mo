// The rope's capture where the tension cannot hold: the ball reaches the
// full rope length above the pivot, at q- = (0.6, 0.8), moving outward
// with v- = (0.8, 0.6) (t = 0.1 s). The inelastic capture removes the radial
// velocity q-.v- = 0.96, leaving v+ = (0.224, -0.168), and the taut mode
// then needs lambda+ = (v+.v+ - g*y)/L^2 = 0.0784 - 7.848 = -7.7696 < 0: the
// rope would have to push. The taut
// mode is not admissible for this event; free flight is (the ball falls
// back inside the circle). Near miss: corpus/good/cup_and_ball.mo, whose
// capture below the pivot gives lambda+ = 8.848.
// status: flawed
// stage: simulation
// expect: restart-impulsive at 34:3 "lambda of order 1"
// expect: verify-inadmissible-restart at 30:5 "mode taut=true violates its admissibility condition"
model CaptureAbovePivot "Capture into a taut rope that would have to push"
  parameter Real L = 1 "rope length";
  parameter Real g = 9.81 "gravity";
  Real x(start = 0.52, fixed = true);
  Real y(start = 0.69095, fixed = true);
  Real vx(start = 0.8, fixed = true);
  Real vy(start = 1.581, fixed = true);
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
  end when;
  annotation(experiment(StopTime = 0.15));
end CaptureAbovePivot;
