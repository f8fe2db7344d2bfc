within Circuits.Examples;
model HalfWaveRectifier "Sine source, ideal diode and an RC load"
  Circuits.Sources.SineVoltage source(V = 10, f = 50);
  Circuits.Ideal.IdealDiode diode;
  Circuits.Basic.Resistor load(R = 100);
  Circuits.Basic.Capacitor capacitor(C = 1e-4);
  Circuits.Basic.Ground ground;
equation
  connect(source.p, diode.p);
  connect(diode.n, load.p);
  connect(diode.n, capacitor.p);
  connect(load.n, source.n);
  connect(capacitor.n, source.n);
  connect(source.n, ground.p);
  annotation(experiment(StopTime = 0.04));
end HalfWaveRectifier;
