// A when-condition that combines two relations with `and`: no single guard.
// status: flawed
// expect: modes-unsupported-trigger at 11:8 "not a single relation"
model AndTrigger
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  Boolean hit(start = false, fixed = true);
equation
  der(x) = 1;
  der(y) = 2;
  when x > 1 and y > 1.5 then
    hit = true;
  end when;
end AndTrigger;
