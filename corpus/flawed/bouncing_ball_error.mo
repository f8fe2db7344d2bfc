// BouncingBallError of the Modelica reinit documentation (seed 004, section 4):
// assigning the continuous velocity in a when-clause instead of reinit gives
// too many equations.
// status: flawed
// expect: flatten-continuous-assigned-in-when at 16:5 "overdetermined"
model BouncingBallError "The bouncing ball model with an algorithm"
  constant Real g = 9.81; // Gravitational acceleration
  parameter Real c = 0.9; // Elasticity constant of ball
  Real height(start = 1); // height above ground of the ball center
  Real velocity(start = 10); // Velocity of the ball
equation
  der(height) = velocity;
  der(velocity) = -g;
algorithm
  when height <= 0 then
    velocity := -c*velocity;
  end when;
end BouncingBallError;
