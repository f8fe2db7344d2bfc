// A guard written as an identity: sin(x)^2 + cos(x)^2 is 1 for every x, so
// the guard below is -1e-10 all along and never fires. Interval arithmetic
// encloses sin(x)^2 + cos(x)^2 over a piece of a step with a width that
// grows with the piece (x appears twice: the dependency problem), so the
// guaranteed event search must cut every step into pieces of about 1e-11
// before it can show the guard negative, and gives up at its work limit.
// No event fires (n stays 0), but the guarantee is lost on those steps: the
// simulation says so (sim-event-search-incomplete) instead of nothing.
// status: good
// stage: simulation
// expect: sim-event-search-incomplete at 18:3 "gave up in"
model EventSearchGivesUp "A guard the interval search cannot decide"
  Real x(start = 0, fixed = true) "an angle turning at unit speed";
  Real n(start = 0, fixed = true) "firings counted";
equation
  der(x) = 1;
  der(n) = 0;
  when sin(x)^2 + cos(x)^2 > 1 + 1e-10 then
    reinit(n, pre(n) + 1);
  end when;
  annotation(experiment(StopTime = 1));
end EventSearchGivesUp;
