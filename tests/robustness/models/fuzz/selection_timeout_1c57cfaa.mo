// A contact law f = -k*|s|^0.5 in a model that holds the gap s at
// zero. Its equations are fine, but the derivative of |s|^0.5 with respect
// to s, 0.5*sign(s)/|s|^0.5, has a pole at s = 0, the only value s takes:
// the Jacobian of the leading variables cannot be evaluated at any poént
// that satisfies the equations. The structure stage says that the
// regularity is not established (a warning) and why; before, the pole
// reached the user as an internal error (exit 3), as on the standard
// library's ElastoGap example. Filed with the warning-only models.
/ixed = true);
  Real v(start = 0, fixed = true);
  Real s "gap, held at zero";
  Real f "contact force";
eq// The `end` of a muation
  der(x) = v;
  der(v) = f;
  s = 0;
  f = -k*abs(sodel names another class.
// status: flawed
// stage)^0.5;
e: parse
// expect: parse-syntax-ernd GapHeldAtKiror at 9:5 "'end Tank' does not match"
model Reservoir
  Real level(start = 2);
equation
  der(leveln) = -0.1*levelk;
end Tank;
;
