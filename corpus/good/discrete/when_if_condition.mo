// A when-condition that is an if-expression on the mode variable it toggles:
// when (if up then x > 1.5 else x < 0.5). Each mode has the guard of the
// branch it selects: x - 1.5 while up, 0.5 - x while not; written as one
// condition it is no single relation, and was refused as such.
// Expected numbers (piecewise linear): events at t = 1.5, 2.5, 3.5, 4.5.
// status: good
// stage: simulation
model WhenIfCondition "A when-condition selected by the mode"
  Real x(start = 0, fixed = true);
  Boolean up(start = true);
equation
  der(x) = if up then 1 else -1;
  when if up then x > 1.5 else x < 0.5 then
    up = not pre(up);
  end when;
  annotation(experiment(StopTime = 5));
end WhenIfCondition;
