// The library's sine voltage source declares its waveform as a replaceable
// signal block and its Sine variant redeclares it in the extends modifier
// (the MSL's voltage sources do the same); with an ideal diode and an RC load.
// status: good
// library: ../../libraries/Drives
model SineRectifierFromLibrary
  extends Drives.Examples.SineRectifier;
end SineRectifierFromLibrary;
