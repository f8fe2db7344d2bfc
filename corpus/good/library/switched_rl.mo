// An inductor behind a switch whose position is an enumeration parameter,
// with Integer() of a literal and a comparison of enumeration values.
// status: good
// library: ../../libraries/Circuits
model SwitchedRLFromLibrary
  extends Circuits.Examples.SwitchedRL(position = Circuits.Types.SwitchPosition.Closed);
end SwitchedRLFromLibrary;
