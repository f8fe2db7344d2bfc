// pipe_diameter.mo with a sign error, A = -2e-4 m2: pi*d^2/4 = A has no
// real solution, so Newton's method finds no consistent point from any of
// its start points, and at the last one (d = 0) the Jacobian is
// rank-deficient. That is not a finding of singularity (the mode is
// regular wherever its equations hold); the structure stage says that the
// regularity is not established (a warning), with Newton's reason. Filed
// with the warning-only models: the structure stage cannot tell an
// unsolvable mode from one whose solution Newton did not reach.
// status: good
// stage: structure
// expect: structure-regularity-inconclusive at 12:1 "the numerical regularity of the model is not established"
model PipeAreaNegative "a pipe's diameter from a cross-section of the wrong sign"
  constant Real pi = 3.14159265358979323846;
  parameter Real A = -2e-4 "cross-section, m2 (sign error)";
  Real d "diameter, m";
  Real h(start = 1, fixed = true) "level of the tank it drains, m";
equation
  pi*d^2/4 = A;
  der(h) = -10*d;
end PipeAreaNegative;
