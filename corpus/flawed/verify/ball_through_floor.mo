// A falling ball whose floor contact has no impact law: the event switches
// to the `landed` mode, whose admissibility condition is h >= 0, but nothing
// resets the velocity, so the states carry over (v- = -4.43 m/s) and the
// ball passes straight through the floor. The missing law is reported at
// the when-clause. Near miss: corpus/good/bouncing_ball.mo, whose reinit
// states the rebound.
// status: flawed
// stage: simulation
// expect: verify-impact-law-missing at 21:3 "no impact law at t = 0.4515236"
model BallThroughFloor "A floor contact without an impact law"
  constant Real g = 9.81;
  Real h(start = 1, fixed = true) "height";
  Real v(start = 0, fixed = true) "velocity";
  Boolean landed(start = false);
equation
  der(h) = v;
  der(v) = -g;
  if landed then
    assert(h >= 0, "the ball cannot pass through the floor");
  end if;
  when h <= 0 then
    landed = true;
  end when;
  annotation(experiment(StopTime = 1));
end BallThroughFloor;
