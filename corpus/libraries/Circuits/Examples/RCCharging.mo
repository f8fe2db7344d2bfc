within Circuits.Examples;
model RCCharging "A capacitor charged through a resistor without heat port"
  Circuits.Sources.ConstantVoltage source(V = 10);
  Circuits.Basic.Resistor resistor(R = 100);
  Circuits.Basic.Capacitor capacitor(C = 1e-3);
  Circuits.Basic.Ground ground;
equation
  connect(source.p, resistor.p);
  connect(resistor.n, capacitor.p);
  connect(capacitor.n, source.n);
  connect(source.n, ground.p);
  connect(resistor.heatPort, ground.p) "dropped: the heat port is absent";
  annotation(experiment(StopTime = 0.5));
end RCCharging;
