within Circuits;
package Units "Types with units"
  type Voltage = Real(unit = "V");
  type Current = Real(unit = "A");
  type Resistance = Real(unit = "Ohm", min = 0);
  type Capacitance = Real(unit = "F", min = 0);
  type Inductance = Real(unit = "H", min = 0);
  type Temperature = Real(unit = "K", min = 0, nominal = 300);
  type HeatFlowRate = Real(unit = "W");
  type Power = Real(unit = "W");
  type Frequency = Real(unit = "Hz");
  type Angle = Real(unit = "rad");
  type LinearTemperatureCoefficient = Real(unit = "1/K");
end Units;
