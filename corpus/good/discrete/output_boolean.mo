// Discrete outputs defined by relations that decide no equation (the MSL's
// BooleanExpression and Step blocks in the idiom of Blocks.Examples.BusUsage,
// our own model): `on = time >= 0.5` and `level = if time < 0.5 then 2 else
// 3` read two relations on the same function, which cross together. Each
// change is an event (Modelica 3.6, 8.5), so at t = 0.5 both outputs switch;
// the terminal asserts read the values the simulation ends with.
// Expected numbers: one event, at t = 0.5; on = true, level = 3 at the end.
// status: good
// stage: simulation
model OutputBoolean "Outputs of relations that select no equation"
  Boolean on;
  Integer level;
  Real x(start = 0, fixed = true);
equation
  on = time >= 0.5;
  level = if time < 0.5 then 2 else 3;
  der(x) = 1;
  when terminal() then
    assert(on, "on is true after t = 0.5");
    assert(level == 3, "level is 3 after t = 0.5");
  end when;
  annotation(experiment(StopTime = 1));
end OutputBoolean;
