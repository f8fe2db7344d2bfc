// An elsewhen-condition, written on its own line, that combines two relations
// with `and`: the location must be the condition, not the first line of the clause.
// status: flawed
// expect: modes-unsupported-trigger at 15:5 "not a single relation"
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
    x > 1 and y > 1.5 then
    n = 2;
  end when;
end ElsewhenAndTrigger;
