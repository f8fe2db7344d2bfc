// A heater switched by the library's on/off controller, whose Boolean
// output starts from an initial equation pre(y) = pre_y_start (the MSL's
// on/off controller and hysteresis blocks start that way).
// status: good
// library: ../../libraries/Drives
model ThermostatFromLibrary
  extends Drives.Examples.Thermostat;
end ThermostatFromLibrary;
