// A half-wave rectifier from the library's ideal diode, sine source and RC
// load; the sine source reads the package constant pi through an import of
// a single definition in a file that also holds classes outside the subset
// (an external function), which are never used and never refused.
// Simulated over five periods: tests/unit/simulation/rectifier_test.cpp
// compares its switching instants with the closed form of
// corpus/good/halfwave_rectifier.mo (it stopped at t = 0 with no
// consistent initial values, then crawled through the conducting mode).
// status: good
// stage: simulation
// library: ../../libraries/Circuits
model HalfWaveFromLibrary
  extends Circuits.Examples.HalfWaveRectifier;
  annotation(experiment(StopTime = 0.1));
end HalfWaveFromLibrary;
