// Two elements that no expandable connector declares, connected to each
// other: neither gives the other a type (Modelica 3.6, 9.1.3).
// status: flawed
// expect: flatten-type-mismatch at 11:3 "neither side is declared"
expandable connector Bus
end Bus;

model ExpandableTwoUndeclared
  Bus a, b;
equation
  connect(a.v, b.v);
end ExpandableTwoUndeclared;
