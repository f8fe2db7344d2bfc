// A counter k moved on by a clock, and clauses on its changes: change(k) is
// k <> pre(k), a condition over a discrete variable that decides no mode.
// It is decided in the event iteration at each tick (the tick assigns k,
// change(k) is then true in the same step), not by enumerating k's values
// as modes (which never ends: modes-limit-reached, and neither clause
// fired). The same holds for a relation on the counter, k >= 3.
// Expected numbers (closed form): ticks at t = 0, 0.1, ..., 0.5 (6 events);
// at the stop time 0.55, k = 6, m = 2 k = 12 (each change of k adds 2),
// xk = x at the last tick = 0.5, reached = 0.2 (k becomes 3 at the third
// tick) and x = 0.55. tests/unit/simulation/discrete_logic_test.cpp checks
// them.
// status: good
// stage: simulation
model CounterChange "clauses on the changes of a sampled counter"
  Real x(start = 0, fixed = true) "a clock's time";
  Integer k(start = 0) "ticks counted";
  Integer m(start = 0) "2 per change of k";
  discrete Real xk(start = -1) "x at the last change of k";
  discrete Real reached(start = -1) "when k reached 3";
equation
  der(x) = 1;
  when sample(0, 0.1) then
    k = pre(k) + 1;
  end when;
  when change(k) then
    m = pre(m) + 2;
    xk = x;
  end when;
  when k >= 3 then
    reached = time;
  end when;
  annotation(experiment(StopTime = 0.55));
end CounterChange;
