// The near miss of ./gap_held_at_kink.mo: the gap follows the position,
// s + s^3 = x (nonlinear, so that s stays an unknown of its own rather
// than an alias of x). At the start values (x = 0, so s = 0) the
// derivative of |s|^0.5 has a pole,
// but the structure stage's next start point (zeros replaced by their
// scale, x = 1) is consistent and the Jacobian is defined there: the mode
// is regular, with no finding.
// status: good
// stage: structure
model GapFreeAtKink "a contact force law evaluated where its derivative has a pole"
  parameter Real k = 100 "contact stiffness";
  Real x(start = 0, fixed = true);
  Real v(start = 1, fixed = true);
  Real s "gap, following the position";
  Real f "contact force";
equation
  der(x) = v;
  der(v) = f;
  s + s^3 = x;
  f = -k*abs(s)^0.5;
end GapFreeAtKink;
