// The bouncing ball of seed 004 run past its accumulation point: the
// flights shorten by c = 0.9 each time and the impact times accumulate near
// t = 22.2 s; the simulation reports Zeno behaviour instead of grinding on.
// status: good
// stage: simulation
// expect: sim-zeno at 7:1 "event times accumulate"
model BouncingBallZeno "The bouncing ball past its accumulation point"
  constant Real g = 9.81;
  parameter Real c = 0.9;
  Real height(start = 1, fixed = true);
  Real velocity(start = 10, fixed = true);
equation
  der(height) = velocity;
  der(velocity) = -g;
algorithm
  when height <= 0 then
    reinit(velocity, -c*velocity);
  end when;
  annotation(experiment(StopTime = 30));
end BouncingBallZeno;
