// reinit written as an ordinary equation, outside any when-clause.
// status: flawed
// expect: flatten-reinit-outside-when at 10:3 "reinit"
model ReinitOutsideWhen
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(h) = v;
  der(v) = -9.81;
  reinit(v, -0.9*pre(v));
end ReinitOutsideWhen;
