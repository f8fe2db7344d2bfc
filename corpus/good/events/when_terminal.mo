// when terminal() (Modelica 3.6, 3.7.4.2): terminal() is true at the end of
// a successful run only, so the clause fires once, at the stop time, with
// the final values. floor(x) has its events on the way, which do not fire
// the clause.
// Expected numbers: x = 2 t; at the stop time t = 1.3, x = 2.6, so
// xEnd = 2.6 (-1, its start value, until then); floor(x) jumps at t = 0.5
// and 1 (2 events) and y(1.3) = 0.5 + 2 * 0.3 = 1.1.
// status: good
// stage: simulation
model WhenTerminal "when terminal(): the final values recorded once"
  Real x(start = 0, fixed = true);
  Real y(start = 0, fixed = true);
  discrete Real xEnd(start = -1);
equation
  der(x) = 2;
  der(y) = floor(x);
  when terminal() then
    xEnd = x;
  end when;
  annotation(experiment(StopTime = 1.3));
end WhenTerminal;
