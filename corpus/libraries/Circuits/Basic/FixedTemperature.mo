within Circuits.Basic;
model FixedTemperature "Heat port held at a fixed temperature"
  parameter SI.Temperature T = 293.15;
  Circuits.Interfaces.HeatPort port;
equation
  port.T = T;
end FixedTemperature;
