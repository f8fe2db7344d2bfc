// The bouncing ball of the Modelica reinit documentation (seed 004, section 2).
// status: good
// Expected numbers (checked once the simulation stage exists): first impact at
// t1 = (10 + sqrt(100 + 2*9.81))/9.81; each later flight lasts 2*c*|v|/g.
model BouncingBall "The bouncing ball model with an algorithm"
  constant Real g = 9.81; // Gravitational acceleration
  parameter Real c = 0.9; // Elasticity constant of ball
  Real height(start = 1, fixed = true); // height above ground of ball center
  Real velocity(start = 10, fixed = true); // Velocity of the ball
equation
  der(height) = velocity;
  der(velocity) = -g;
algorithm
  when height <= 0 then
    reinit(velocity, -c*velocity);
  end when;
  annotation(experiment(StopTime = 20));
end BouncingBall;
