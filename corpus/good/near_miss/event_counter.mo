// Near miss of modes-limit-reached: a single mode and an Integer that counts
// the events of a when-clause. The counter selects no equations (it is not a
// mode variable), so there is one mode, far below the exploration limit.
// status: good
model EventCounter
  Real x(start = 1, fixed = true);
  discrete Integer count(start = 0, fixed = true);
equation
  der(x) = -x;
algorithm
  when x < 0.5 then
    count := pre(count) + 1;
  end when;
end EventCounter;
