// The near miss of corpus/good/unstable_forced_band.mo: the same
// bounded solution x = cos(t) of a stable system, der(x) = -(x - cos(t)) -
// sin(t). Integration errors decay, the band is never left, and the rerun at
// rtol/10 agrees: no sim-tolerance-sensitive.
// status: good
// stage: simulation
model StableForcedBand
  Real x(start = 1, fixed = true);
  Boolean away(start = false) "x has left the band around cos(t)";
equation
  der(x) = -(x - cos(time)) - sin(time);
  when (x - cos(time))^2 > 1 then
    away = true;
  end when;
  annotation(experiment(StopTime = 40));
end StableForcedBand;
