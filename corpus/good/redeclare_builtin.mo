// A replaceable component of a built-in type, redeclared with a new
// binding in a component modifier (formerly refused as outside the subset).
// status: good
model Spring
  replaceable Real k = 1;
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(x) = v;
  der(v) = -k*x;
end Spring;

model RedeclaredSpring
  Spring s(redeclare Real k = 2);
  annotation(experiment(StopTime = 1));
end RedeclaredSpring;
