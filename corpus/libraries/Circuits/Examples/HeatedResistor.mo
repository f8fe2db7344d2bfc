within Circuits.Examples;
model HeatedResistor "A resistor whose resistance follows a fixed ambient temperature"
  import Circuits.Basic;
  import Circuits.Constants.T_zero;
  Circuits.Sources.ConstantVoltage source(V = 1);
  Basic.Resistor resistor(R = 10, alpha = 0.004, useHeatPort = true);
  Basic.FixedTemperature ambient(T = 50 - T_zero);
  Basic.Ground ground;
equation
  connect(source.p, resistor.p);
  connect(resistor.n, source.n);
  connect(source.n, ground.p);
  connect(resistor.heatPort, ambient.port);
end HeatedResistor;
