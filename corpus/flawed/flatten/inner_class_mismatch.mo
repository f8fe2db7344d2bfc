// The inner element is of a class that lacks a component the outer
// declaration's class has: the outer element could read `world.g`, which the
// inner element does not declare (Modelica 3.6, 5.4: the inner's class must
// be a subtype of the outer's).
// status: flawed
// expect: flatten-type-mismatch at 17:15 "lacks 'g'"
model World
  parameter Real g = 9.81;
  parameter Real rho = 1.2;
end World;

model Atmosphere
  parameter Real rho = 1.2;
end Atmosphere;

model Ball
  outer World world;
  Real h(start = 10, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(h) = v;
  der(v) = -world.g - world.rho*v*abs(v);
end Ball;

model InnerClassMismatch
  inner Atmosphere world;
  Ball ball;
end InnerClassMismatch;
