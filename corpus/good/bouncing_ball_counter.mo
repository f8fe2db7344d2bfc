// The bouncing ball with an impact counter: an Integer assigned in the
// when-clause that selects no equations (not a mode variable), tracked by
// the simulation from event to event.
// status: good
// Expected numbers: impacts at the closed-form times of bouncing_ball.mo
// (the same h = 1, v = 10, c = 0.9); after impact k, bounces = k; at t = 20
// bounces equals the number of impacts before 20.
model BouncingBallCounter
  constant Real g = 9.81;
  parameter Real c = 0.9;
  Real height(start = 1, fixed = true);
  Real velocity(start = 10, fixed = true);
  Integer bounces(start = 0) "impacts so far";
equation
  der(height) = velocity;
  der(velocity) = -g;
algorithm
  when height <= 0 then
    reinit(velocity, -c*velocity);
    bounces := pre(bounces) + 1;
  end when;
  annotation(experiment(StopTime = 20));
end BouncingBallCounter;
