// A contact law f = -k*|s|^0.5 in a model that holds the gap s at
// zero. Its equations are fine, but the derivative of |s|^0.5 with respect
// to s, 0.5*sign(s)/|s|^0.5, has a pole at s = 0, the only value s takes:
// the Jacobian of the leading variables cannot be evaluated at any point
// that satisfies the equations. The structure stage says that the
// regularity is not established (a warning) and why; before, the pole
// reached the user as an internal error (exit 3), as on the standard
// library's ElastoGap example. Filed with the warning-only models.
// The near miss ./gap_free_at_kink.mo lets the gap follow the position:
// the start value puts it at the kink too, but the next start point does
// not, and the mode is regular.
// status: good
// stage: structure
// expect: structure-regularity-inconclusive at 15:1 "where a derivative has a pole"
model GapHeldAtKink "a contact force law evaluated where its derivative has a pole"
  parameter Real k = 100 "contact stiffness";
  Real x(start = 0, fixed = true);
  Real v(start = 0, fixed = true);
  Real s "gap, held at zero";
  Real f "contact force";
equation
  der(x) = v;
  der(v) = f;
  s = 0;
  f = -k*abs(s)^0.5;
end GapHeldAtKink;
