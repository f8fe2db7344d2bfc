// A half-wave rectifier: a sine source V*sin(2*pi*f*time), one ideal diode
// (the Modelica Standard Library's formulation with Ron = Goff = 0, as in
// corpus/good/rldc2_components.mo) and a smoothing capacitor C parallel to
// a load resistor R. While the diode conducts the capacitor voltage is the
// source voltage (a consistency condition with an explicit time); it stops
// when the diode current C*dv/dt + v/R falls to 0 and starts again when the
// source rises to the decayed capacitor voltage. Restarting into the
// conducting mode solves that condition at the event time (it was once
// solved at time 0, and the run stopped at the first switch as
// undetermined although the transition is continuous).
// status: good
// stage: simulation
// Expected numbers (tests/reference/rectifier_reference.py, closed form at
// 30 digits; tests/unit/simulation/rectifier_test.cpp checks them to 1e-8 s
// and 1e-7 V): the diode blocks at t = 0.0059809326195 + k/50 and conducts
// again at t = 0.0207016234720 + k/50; v(0.1) = 2.3453228947 V.
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

  model SineVoltage "v = V*sin(2*pi*f*time)"
    extends OnePort;
    parameter Real V = 1 "amplitude";
    parameter Real f = 1 "frequency";
    constant Real pi = 3.14159265358979323846;
  equation
    v = V*sin(2*pi*f*time);
  end SineVoltage;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
end Circuits;

model HalfwaveRectifier "half-wave rectifier with a smoothing capacitor"
  import Circuits.*;
  SineVoltage S(V = 10, f = 50);
  IdealDiode D(s(start = 1e-3)) "conducts at the start: the source rises from 0";
  Capacitor C(C = 1e-4, v(start = 0));
  Resistor R(R = 100);
  Ground G;
equation
  connect(S.p, D.p);
  connect(D.n, C.p);
  connect(C.p, R.p);
  connect(S.n, G.p);
  connect(C.n, G.p);
  connect(R.n, G.p);
  annotation(experiment(StopTime = 0.1));
end HalfwaveRectifier;
