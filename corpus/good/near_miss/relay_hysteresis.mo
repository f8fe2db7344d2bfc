// Near miss of sim-zeno (chattering): the relay of ../relay_chatters.mo with
// hysteresis. It switches on at x = 1 and off at x = 0.5, so each new mode's
// guard starts well below zero: events at t = 0.5, 1, 1.5, ... and no
// chattering.
// status: good
// stage: simulation
model RelayHysteresis "A relay with hysteresis"
  Real x(start = 0.5, fixed = true);
  Boolean on(start = false);
equation
  der(x) = if on then -1 else 1;
  when x > 1 then
    on = true;
  end when;
  when x < 0.5 then
    on = false;
  end when;
  annotation(experiment(StopTime = 1.8));
end RelayHysteresis;
