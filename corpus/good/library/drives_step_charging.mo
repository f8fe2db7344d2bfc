// A step voltage whose signal block is redeclared by an element of the
// class extending the voltage source (not in a modifier), charging a
// capacitor through a resistor.
// status: good
// library: ../../libraries/Drives
model StepChargingFromLibrary
  extends Drives.Examples.StepCharging;
end StepChargingFromLibrary;
