// A source whose signal block is replaceable with a constraining clause:
// the model redeclares it with a sine block in a component modifier; the
// constraining clause's modifier (offset = 0) stays on the new block.
// status: good
// library: ../../libraries/Drives
model ConstrainedSineSource
  Drives.Electrical.SignalVoltage source(gain = 2, redeclare Drives.Signals.Sine signal(amplitude = 3, f = 5));
  Drives.Electrical.Resistor r(R = 10);
  Drives.Electrical.Ground ground;
equation
  connect(source.p, r.p);
  connect(r.n, source.n);
  connect(source.n, ground.p);
  annotation(experiment(StopTime = 0.5));
end ConstrainedSineSource;
