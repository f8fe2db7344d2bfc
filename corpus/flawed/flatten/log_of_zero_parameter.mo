// log() of a parameter that is zero: the evaluated equation has no value; the
// error must point at the call, not at the model's name.
// status: flawed
// expect: flatten-invalid-value at 11:10 "log"
model LogOfZeroParameter
  parameter Real p0 = 0 "reference pressure";
  Real p(start = 1, fixed = true);
  Real L;
equation
  der(p) = -p;
  L = 20*log(p0)*p;
end LogOfZeroParameter;
