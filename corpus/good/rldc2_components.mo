// RLDC2 (seed 000, section 5.1) built from components joined by connect:
// resistors, inductors, capacitors, ideal diodes (the Modelica Standard
// Library's formulation with Ron = Goff = 0) and a ground. It flattens to a
// system equivalent to corpus/good/rldc2.mo (tests/unit/flatten/rldc2_test.cpp).
// status: good
package Circuits
  connector Pin "electrical pin"
    Real v "potential";
    flow Real i "current into the pin";
  end Pin;

  partial model OnePort "two pins, one current"
    Pin p, n;
    Real v "voltage drop p - n";
    Real i "current from p to n";
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

  model Inductor
    extends OnePort(i(fixed = true));
    parameter Real L = 1;
  equation
    L*der(i) = v;
  end Inductor;

  model Capacitor
    extends OnePort(v(fixed = true));
    parameter Real C = 1;
  equation
    i = C*der(v);
  end Capacitor;

  model IdealDiode "ideal diode: u = 0 when conducting, i = 0 when blocking"
    extends OnePort;
    parameter Real Ron = 0;
    parameter Real Goff = 0;
    Boolean off;
    Real s(start = 0);
  equation
    off = s < 0;
    v = s*(if off then 1 else Ron);
    i = s*(if off then Goff else 1);
  end IdealDiode;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
end Circuits;

model RLDC2Components "RLDC2 diode circuit from components"
  import Circuits.*;
  Resistor R1(R = 10), R2(R = 15);
  Inductor L1(L = 1, i(start = -0.2)), L2(L = 1.5, i(start = -0.3));
  Capacitor C1(C = 0.1, v(start = 0.5)), C2(C = 0.15, v(start = 0.7));
  IdealDiode D1(s(start = 0.45)), D2(s(start = -0.2));
  Ground G;
equation
  connect(R1.p, D1.p);
  connect(R2.p, D1.p);
  connect(D2.p, R1.p);
  connect(R1.n, L1.p);
  connect(R2.n, L2.p);
  connect(D1.n, C1.p);
  connect(D2.n, C2.p);
  connect(L1.n, G.p);
  connect(L2.n, G.p);
  connect(C1.n, G.p);
  connect(C2.n, G.p);
  annotation(experiment(StopTime = 0.1));
end RLDC2Components;
