// A resistor with its conditional heat port switched on and connected to a
// fixed temperature; the port's variables carry final modifiers from the
// library's partial class, and the ambient temperature is written with a
// package constant brought in by a single-definition import.
// status: good
// library: ../../libraries/Circuits
model HeatedResistorFromLibrary
  extends Circuits.Examples.HeatedResistor;
end HeatedResistorFromLibrary;
