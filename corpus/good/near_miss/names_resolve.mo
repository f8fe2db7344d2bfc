// Near miss of flatten-undefined-name: names found through extends, enclosing
// packages, an import, a dotted component reference two levels deep, and a
// local copy of the library type `Units.SI.Voltage` instead of the Modelica
// Standard Library's; attributes spelt right (start, fixed, unit, nominal).
// status: good
package Units
  package SI
    type Voltage = Real(unit = "V");
    type Current = Real(unit = "A");
  end SI;
end Units;

package Circuits
  connector Pin
    Units.SI.Voltage v;
    flow Units.SI.Current i;
  end Pin;

  partial model OnePort
    Pin p, n;
    Units.SI.Voltage v;
    Units.SI.Current i;
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end OnePort;

  model Resistor
    extends OnePort;
    parameter Real R = 1;
  equation
    v = R*i;
  end Resistor;

  model Capacitor
    extends OnePort(v(start = 1, fixed = true, nominal = 1));
    parameter Real C = 1;
  equation
    i = C*der(v);
  end Capacitor;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
end Circuits;

model NamesResolve
  import Circuits.*;
  Resistor r1(R = 2);
  Capacitor c1(C = 0.5);
  Ground g;
  Units.SI.Voltage vr "voltage across the resistor";
equation
  connect(r1.p, c1.p);
  connect(r1.n, c1.n);
  connect(c1.n, g.p);
  vr = r1.p.v - r1.n.v;
end NamesResolve;
