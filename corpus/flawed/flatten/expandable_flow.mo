// A flow variable declared directly in an expandable connector: its
// elements may not be flow variables (Modelica 3.6, 9.1.3).
// status: flawed
// expect: flatten-type-mismatch at 7:13 "may not be flow variables"
expandable connector Bus
  Real e;
  flow Real f;
end Bus;

model ExpandableFlow
  Bus bus;
  Real x(start = 1, fixed = true);
equation
  der(x) = -x;
end ExpandableFlow;
