// RLDC2 (seed 000, section 5.1) from components whose ideal diode is the
// Modelica Standard Library's idiom: off = s < 0 with off(start = true)
// and no start value for the algebraic s. Both diodes blocking has no
// consistent initial values (the inductors' currents need a path), so the
// initial event iteration solves the mixed system: it tries the nearest
// modes that differ in the diodes' switches, and settles where each
// diode's relation holds (D1 conducting, D2 blocking). The run then
// reproduces the seed's event at t = 0.055317579971 s, D2 starting to
// conduct with a continuous restart (tests/unit/simulation/
// event_iteration_test.cpp).
// status: good
// stage: simulation
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
    Boolean off(start = true) "blocking";
    Real s "the diode's characteristic parameter";
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

model RLDC2DiodeIdiom "RLDC2 from components with the library's diode idiom"
  import Circuits.*;
  Resistor R1(R = 10), R2(R = 15);
  Inductor L1(L = 1, i(start = -0.2)), L2(L = 1.5, i(start = -0.3));
  Capacitor C1(C = 0.1, v(start = 0.5)), C2(C = 0.15, v(start = 0.7));
  IdealDiode D1, D2;
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
end RLDC2DiodeIdiom;
