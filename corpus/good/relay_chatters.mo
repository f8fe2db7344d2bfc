// A relay without hysteresis: the mode switches to der(x) = -1 when x rises
// above 1 and back to der(x) = 1 when x falls below 1. At x = 1 both flows
// point across the switching surface, so after the first switch at t = 0.5
// the new mode's guard is crossing at once: the modes chatter (a sliding
// motion the model does not define). Without the chattering check the run
// slid through the surface and ended at x = -0.5.
// status: good
// stage: simulation
// expect: sim-zeno at 10:1 "the modes chatter: right after the event at t = 0.5"
model RelayChatters "A relay without hysteresis"
  Real x(start = 0.5, fixed = true);
  Boolean on(start = false);
equation
  der(x) = if on then -1 else 1;
  when x > 1 then
    on = true;
  end when;
  when x < 1 then
    on = false;
  end when;
  annotation(experiment(StopTime = 2));
end RelayChatters;
