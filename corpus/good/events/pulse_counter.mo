// The standard library's pulse idiom: an initial algorithm counts the periods
// already passed at t = 0, a when-clause whose condition reads the counter
// moves on by one period each time (the guard is re-read with the counter's
// current value), and the period's start T_start is a Real assigned alone in
// a when-equation (a discrete Real). On over [0.3, 0.95) and [1.6, 2]: x(2) = 1.05.
// status: good
model PulseCounter
  parameter Real startTime = 0.3;
  parameter Real period = 1.3;
  Real T_start;
  Integer count;
  Real y;
  Real x(start = 0, fixed = true);
initial algorithm
  count := integer((time - startTime)/period);
  T_start := startTime + count*period;
equation
  when time >= (pre(count) + 1)*period + startTime then
    count = pre(count) + 1;
    T_start = time;
  end when;
  y = if time < startTime then 0 else if time < T_start + 0.65 then 1 else 0;
  der(x) = y;
  annotation(experiment(StopTime = 2));
end PulseCounter;
