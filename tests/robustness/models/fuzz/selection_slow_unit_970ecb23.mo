// A mass falls onto a rigid stop whose contact force is cubic in the
// multiplier of the constraint x = 0: f = lambda^3. At the impact f is an
// impulse of order 1 (it stops v- at once), so lambda, whose cube is f, is of
// order 1/3: the tropical value of lambda^3 is three times that of lambda
// (axiom 111). modeaudit rescales by integer orders only; with lambda of
// order 1 the cube would lead alone and the restart row -lambda_r^3 = 0 would
// be singular at its only solution lambda_r = 0. So the restart is
// unsupported, and the finding names the equation and the order it needs.
// Near miss: corpus/good/near_miss/linear_contact_law.mo (f = 3*lambda).
// status: flawed
// expect: restart-unsupported-nonlinear at 26:3 "lambda would need impulse order 1/3 in f = lambda^3, where lambda^3 leads at order 1"
model CubicContactLaw "A mass hitting a stop through a cubic force law"
  parameter Real m = 1 "mass (kg)";
  parameter Real g = 9.81 "gravity (m/s2)";
  Real x(start = 1, fixed = true) "height above the stop (m)";
  Real v(start = 0, fixed = true) "velocity (m/s)";
  Real f "contact force (N)";
  // A start value away from 0: the cube has a zero slope there, and the
  // consistency check of the contact mode starts from the start values.
  Real lambda(start = 1) "multiplier of the contact constraint";
  Boolean contact(start = false);
equation
  der(x) = v;
  m*der(v) = f - m*g;
  // the cubic law: f = lambda^3 with lambda an impulse multiplier
  f = lambda^3;
  if contact then
    x = 0;
  else
    lambda = 0;
  end if;
  when x <= 0 then
    contact = true;
  end when;
  annotation(experiment(StopTime = 1));
end CubicContactLaw;
