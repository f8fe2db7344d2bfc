// The hysteresis of ./hysteresis_latch.mo written with when-clauses: y
// falls when x rises above 1.5 and rises when x falls below 0.5. The same
// events at t = 1.5, 2.5, 3.5, 4.5 (tests/unit/simulation/
// discrete_logic_test.cpp compares the two runs to 1e-9).
// status: good
// stage: simulation
model HysteresisWhen "The same hysteresis with when-clauses"
  Real x(start = 0, fixed = true);
  Boolean y(start = true);
equation
  der(x) = if y then 1 else -1;
  when x > 1.5 then
    y = false;
  elsewhen x < 0.5 then
    y = true;
  end when;
  annotation(experiment(StopTime = 5));
end HysteresisWhen;
