// A half-wave rectifier from the library's ideal diode, sine source and RC
// load; the sine source reads the package constant pi through an import of
// a single definition in a file that also holds classes outside the subset
// (an external function), which are never used and never refused.
// status: good
// library: ../../libraries/Circuits
model HalfWaveFromLibrary
  extends Circuits.Examples.HalfWaveRectifier;
end HalfWaveFromLibrary;
