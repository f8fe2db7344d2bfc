#include "generators.h"

#include <fmt/format.h>

namespace modeaudit::generators {

std::string rc_ladder(int n) {
    return fmt::format(R"(// Generated RC ladder with {0} cells (corpus/generators).
package Lib
  connector Pin Real v; flow Real i; end Pin;
  partial model OnePort
    Pin p, n; Real v; Real i;
  equation
    v = p.v - n.v; 0 = p.i + n.i; i = p.i;
  end OnePort;
  model Resistor extends OnePort; parameter Real R = 1; equation v = R*i; end Resistor;
  model Capacitor extends OnePort(v(start = 0, fixed = true)); parameter Real C = 1; equation i = C*der(v); end Capacitor;
  model Ground Pin p; equation p.v = 0; end Ground;
  model Source extends OnePort; parameter Real V0 = 1; equation v = V0; end Source;
  model Cell "series resistor, shunt capacitor"
    Pin a, b, g; Resistor r; Capacitor c;
  equation
    connect(a, r.p); connect(r.n, b); connect(r.n, c.p); connect(c.n, g);
  end Cell;
end Lib;

model Ladder
  import Lib.*;
  parameter Integer n = {0};
  Cell cell[n](each r(R = 2), each c(C = 0.5));
  Source s; Ground gnd;
equation
  connect(s.p, cell[1].a);
  connect(s.n, gnd.p);
  for k in 1:n-1 loop connect(cell[k].b, cell[k+1].a); end for;
  for k in 1:n loop connect(cell[k].g, gnd.p); end for;
end Ladder;
)",
                       n);
}

std::string diode_cells(int n) {
    return fmt::format(R"(// Generated: {0} independent diode cells (corpus/generators).
model DiodeCells
  parameter Integer n = {0};
  parameter Real R = 10, C = 0.1;
  parameter Real E = 1;
  Real v[n](each start = 0.5, each fixed = true) "capacitor voltages";
  Real i[n] "diode currents";
  Real u[n] "diode voltages";
  Real s[n] "diode curve parameters";
  Boolean off[n](each start = false);
equation
  for k in 1:n loop
    C*der(v[k]) = i[k];
    E - v[k] = R*i[k] + u[k];
    off[k] = s[k] < 0;
    u[k] = if off[k] then s[k] else 0;
    i[k] = if off[k] then 0 else s[k];
  end for;
end DiodeCells;
)",
                       n);
}

std::string switch_cells(int n) {
    return fmt::format(R"(// Generated: {0} independent switching cells (corpus/generators).
model SwitchCells
  parameter Integer n = {0};
  parameter Real C1 = 1e-3, C2 = 3e-3;
  Real v1[n](each start = 4, each fixed = true) "first capacitor voltages";
  Real v2[n](each start = 0, each fixed = true) "second capacitor voltages";
  Real i[n] "switch currents";
  Boolean closed[n](each start = false);
equation
  for k in 1:n loop
    C1*der(v1[k]) = -i[k];
    C2*der(v2[k]) = i[k];
    if closed[k] then
      v1[k] = v2[k];
    else
      i[k] = 0;
    end if;
    when time >= k/(n + 1) then
      closed[k] = true;
    end when;
  end for;
  annotation(experiment(StopTime = 1));
end SwitchCells;
)",
                       n);
}

}  // namespace modeaudit::generators
