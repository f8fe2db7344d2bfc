// A capacitor charged through a resistor, built from the corpus library
// Circuits (corpus/libraries/Circuits) by extending its example: classes by
// full names across package directories, a type alias package imported as
// SI, a conditional heat port left out (its connect equation dropped), and
// StateSelect accepted on the capacitor voltage.
// status: good
// library: ../../libraries/Circuits
model RCChargingFromLibrary "The library's RC example"
  extends Circuits.Examples.RCCharging;
end RCChargingFromLibrary;
