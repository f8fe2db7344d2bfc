// A guard written as an identity: sin(2x) - 2 sin(x) cos(x) is 0 for every
// x, so the guard below is -1e-14 all along and never fires. Interval
// arithmetic encloses it over a piece of a step with a width that grows
// with the piece (x appears three times: the dependency problem); the
// centered form (the value at the piece's midpoint plus the slope's
// enclosure times the half-width) shrinks with the square of the width,
// but against a margin of 1e-14 it still needs pieces of about 1e-7, ten
// million per unit of time, and the guaranteed event search gives up at
// its work limit. No event fires (n stays 0), but the guarantee is lost on
// those steps: the simulation says so (sim-event-search-incomplete)
// instead of nothing.
// status: good
// stage: simulation
// expect: sim-event-search-incomplete at 21:3 "gave up in"
model EventSearchGivesUp "A guard the interval search cannot decide"
  Real x(start = 0, fixed = true) "an angle turning at unit speed";
  Real n(start = 0, fixed = true) "firings counted";
equation
  der(x) = 1;
  der(n) = 0;
  when sin(2*x) - 2*sin(x)*cos(x) > 1e-14 then
    reinit(n, pre(n) + 1);
  end when;
  annotation(experiment(StopTime = 1));
end EventSearchGivesUp;
