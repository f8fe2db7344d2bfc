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

// n independent switching cells, each two capacitors joined by an ideal
// switch that closes at its own time (cell k at t = k/(n+1) of the stop
// time 1): closing forces equal voltages, an impulsive restart that keeps
// the cell's charge. n Boolean mode variables, each touching only its own
// cell: 2^n global modes, n independent switching clusters.
std::string switch_cells(int n);

}  // namespace modeaudit::generators
