// A forced unstable system: der(x) = x - sin(t) - cos(t) with x(0) = 1 has
// the bounded solution x = cos(t), but every integration error grows as e^t.
// The run leaves the band |x - cos(t)| < 1 at about t = 27, at a time and
// with final values that move with the tolerance: the rerun at rtol/10 moves
// the event by some 0.4 s and x at the end by some 1e6.
// status: good
// stage: simulation
// expect: sim-tolerance-sensitive at 9:1 "when the tolerance is tightened"
model UnstableForcedBand
  Real x(start = 1, fixed = true);
  Boolean away(start = false) "x has left the band around cos(t)";
equation
  der(x) = x - sin(time) - cos(time);
  when (x - cos(time))^2 > 1 then
    away = true;
  end when;
  annotation(experiment(StopTime = 40));
end UnstableForcedBand;
