// A constraint that is a power of a sum (231 terms multiplied out; its
// derivatives in the mode-change array exceed the default 1000-term limit,
// which cli.limit_z3_time raises): the rescaling of the capture's array
// takes Z3 well over ten seconds, so a small --z3-timeout is reached
// reliably (tests/CMakeLists.txt).
model Z3Slow
  Real x(start = 0.4, fixed = true);
  Real y(start = -0.7, fixed = true);
  Real vx(start = 2, fixed = true);
  Real vy(start = 0, fixed = true);
  Real lambda;
  Boolean taut(start = false);
equation
  der(x) = vx;
  der(y) = vy;
  der(vx) = -lambda*x;
  der(vy) = -lambda*y - 9.81;
  if taut then
    (x^2 + y^2 + 1)^20 = 2^20;
  else
    lambda = 0;
  end if;
  when x^2 + y^2 >= 1 then
    taut = true;
  end when;
end Z3Slow;
