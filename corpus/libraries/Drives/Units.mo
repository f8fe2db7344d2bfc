within Drives;
package Units "Physical types"
  type Voltage = Real(unit = "V");
  type Current = Real(unit = "A");
  type Resistance = Real(unit = "Ohm");
  type Capacitance = Real(unit = "F");
  type Frequency = Real(unit = "Hz");
  type Angle = Real(unit = "rad");
  type Time = Real(unit = "s");
  type AngularVelocity = Real(unit = "rad/s");
  type Torque = Real(unit = "N.m");
  type Inertia = Real(unit = "kg.m2");
  type Temperature = Real(unit = "K");
  type HeatCapacity = Real(unit = "J/K");
  type Power = Real(unit = "W");
  type Inductance = Real(unit = "H");
  type ThermalConductance = Real(unit = "W/K");
end Units;
