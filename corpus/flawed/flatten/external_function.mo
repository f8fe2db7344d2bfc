// A function implemented in external C code.
// status: flawed
// expect: flatten-unsupported-construct at 7:3 "an external function is not supported"
function friction
  input Real v;
  output Real f;
  external "C" f = friction_c(v);
end friction;

model ExternalFunction
  Real x(start = 0);
  Real v(start = 1);
equation
  der(x) = v;
  der(v) = -friction(v);
end ExternalFunction;
