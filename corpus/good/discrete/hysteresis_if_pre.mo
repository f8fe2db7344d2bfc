// A hysteresis written as an if-expression on its own left limit:
// y = if pre(y) then x > a else x > b. With y false the threshold is b
// (guard x - b), with y true it is a (guard a - x). The relation's side is
// an if-expression on the mode variable too (x > (if pre(z) then a else b)
// for z): each mode reads the branch it selects. This form once made `check`
// run for minutes without output.
// Expected numbers (piecewise linear): events at t = 1.5, 2.5, 3.5, 4.5.
// status: good
// stage: simulation
model HysteresisIfPre "Hysteresis by an if-expression on pre(y)"
  parameter Real a = 0.5;
  parameter Real b = 1.5;
  Real x(start = 0, fixed = true);
  Real w(start = 0, fixed = true);
  Boolean y(start = false);
  Boolean z(start = false);
equation
  der(x) = if y then -1 else 1;
  y = if pre(y) then x > a else x > b;
  der(w) = if z then -1 else 1;
  z = w > (if pre(z) then a else b);
  annotation(experiment(StopTime = 5));
end HysteresisIfPre;
