// Near miss of pipe_area_negative.mo: the diameter d of a pipe from its
// cross-section, pi*d^2/4 = A, with A = 2e-4 m2 and no start value for d.
// At d = 0, where Newton's method starts, the derivative pi*d/2 of the
// equation vanishes; the regularity check must not read that failed start
// as a singular mode (it once did: structure-numerically-singular, rank 1
// of 2). From its next start point, d = 1, Newton reaches d = 0.0159577 m,
// where the Jacobian has full rank: no finding.
// status: good
// stage: structure
model PipeDiameter "a pipe's diameter from its cross-section"
  constant Real pi = 3.14159265358979323846;
  parameter Real A = 2e-4 "cross-section, m2";
  Real d "diameter, m";
  Real h(start = 1, fixed = true) "level of the tank it drains, m";
equation
  pi*d^2/4 = A;
  der(h) = -10*d;
end PipeDiameter;
