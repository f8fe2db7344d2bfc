// Two parameters whose bindings refer to each other.
// status: flawed
// expect: flatten-parameter-cycle at 5:20 "the value of 'a' depends on itself"
model ParameterCycle
  parameter Real a = b;
  parameter Real b = a;
  Real x(start = 1);
equation
  der(x) = -a*x;
end ParameterCycle;
