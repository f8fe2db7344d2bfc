// Near miss of sim-event-search-incomplete (corpus/good/event_search_gives_up.mo):
// the same never-true guard without the identity, sin(x)^2 > 1 + 1e-10. An
// enclosure of sin(x)^2 never exceeds 1, so the search shows the guard
// negative on each step at once: no event, and the search is complete.
// status: good
// stage: simulation
model EventSearchDecided "A never-true guard the interval search decides"
  Real x(start = 0, fixed = true) "an angle turning at unit speed";
  Real n(start = 0, fixed = true) "firings counted";
equation
  der(x) = 1;
  der(n) = 0;
  when sin(x)^2 > 1 + 1e-10 then
    reinit(n, pre(n) + 1);
  end when;
  annotation(experiment(StopTime = 1));
end EventSearchDecided;
