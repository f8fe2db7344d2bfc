// A triple integrator whose output is prescribed: x1 = sin(time) must be
// differentiated three times to find u, so the structural index is 4, above
// the default bound of 3 (a warning, not an error).
// status: good
// expect: structure-index-high at 6:1 "structural index 4"
model IndexFour
  Real x1, x2, x3, u;
equation
  der(x1) = x2;
  der(x2) = x3;
  der(x3) = u;
  x1 = sin(time);
end IndexFour;
