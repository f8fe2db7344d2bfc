// A declared element of an expandable connector that no connection
// reaches is only potentially present (Modelica 3.6, 9.1.3): reading it in
// an equation is an error, not an unknown without an equation.
// status: flawed
// expect: flatten-type-mismatch at 7:8 "only potentially present"
expandable connector Bus
  Real speed;
end Bus;

model ExpandableNotPresentRead
  Bus bus;
  Real x(start = 0, fixed = true);
equation
  der(x) = bus.speed;
end ExpandableNotPresentRead;
