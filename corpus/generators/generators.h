// Generators of large corpus models, for benchmarks and scaling tests.
// Each returns Modelica text in the input language; the same n always gives
// the same text.
#pragma once

#include <string>

namespace modeaudit::generators {

// An RC ladder of n cells built from components with connect: a voltage
// source, n cells of a series resistor and a shunt capacitor, a ground.
// n states (the capacitor voltages), one mode.
std::string rc_ladder(int n);

// n independent cells, each a source E_k charging a capacitor through a
// resistor and an ideal diode (MSL-style parametric curve, off = s < 0):
// n switches, each touching only its own cell.
std::string diode_cells(int n);

}  // namespace modeaudit::generators
