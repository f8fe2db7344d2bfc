// Near miss of flatten-parameter-cycle: parameters that refer to each other
// without a cycle, declared in the reverse of their dependency order, and a
// component parameter bound to an outer one.
// status: good
model Tank
  parameter Real area = 1;
  Real h(start = 1, fixed = true);
  Real q;
equation
  area*der(h) = -q;
  q = 0.1*h;
end Tank;

model ParametersAcyclic
  parameter Real a = 2*b;
  parameter Real b = c + 1;
  parameter Real c = 1;
  Tank t(area = a);
  Real x(start = 1, fixed = true);
equation
  der(x) = -b*x;
end ParametersAcyclic;
