// An elsewhen-condition, written on its own line, that combines a relation
// with an inequality test (`<>`, no zero crossing) by `and`: the location
// must be the condition, not the first line of the clause.
// status: flawed
// expect: modes-unsupported-trigger at 16:5 "not a relation, a combination of relations"
model ElsewhenAndTrigger
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  discrete Integer n(start = 0, fixed = true);
equation
  der(x) = 1;
  der(y) = 2;
  when x > 3 then
    n = 1;
  elsewhen
    x > 1 and y <> 1.5 then
    n = 2;
  end when;
end ElsewhenAndTrigger;
