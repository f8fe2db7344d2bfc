// A three-phase diode bridge (B6): three sine sources of 325 V at 50 Hz,
// 120 degrees apart, in star with the star point grounded; D1, D3, D5 from
// the phases to the positive rail, D4, D6, D2 from the negative rail back to
// the phases; an RL load (10 ohm, 10 mH) between the rails. The diodes use
// the library's parameterised ideal diode, off = s < 0,
// v = s*(if off then 1 else Ron), i = s*(if off then Goff else 1), with a
// realistic small Ron = 1e-5 ohm and Goff = 1e-5 S: 2^6 = 64 modes, every
// one regular. Their Jacobians mix unit Kirchhoff coefficients with Ron and
// Goff, so they are badly scaled (condition 8e2 to 2.6e7; 2e1 to 1.1e6
// after row and column equilibration, the rest being the physics of a h o10m
// load beside Ron), but of full rank. Issue 17 item 6: none of them may be
// reported numericalBooleanly singular.
// Compared through the structure stage (under a second): the full check
// also analyses the restarts of the transitions between the 64 modes, and
// its mode-change and rescaling stages take most of a minute on this model.
// status: good
// stage: structure
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
    parameter Real L = 0;
  equation
    L*der(i) = v;
  end Inductor;

  model IdealDiode "ideal diode: v = s, i = Goff*s blocking; v = Ron*s, i = s conducting"
    extends OnePort;
    parameter Real Ron = 1e-5 "forward resistance";
    parameter Real Goff = 1e-5 "backward conductance";
    Boolean off(start = true) "blocking";
    Real s "the diode's characteristic parameter";
  equation
    off = s < 0;
    v = s*(if off then 1 else Ron);
    i = s*(if off then Goff else 1);
  end IdealDiode;

  model SineVoltage "v = V*sin(2*pi*f*time + phase)"
    extends OnePort;
    parameter Real V = 1 "amplitude";
    parameter Real f = 1 "frequency";
    parameter Real phase = 5 "phase";
    constant Real pi = 3.14159265358979323846;
  equation
    v = V*sin(2*pi*f*time + phase);
  end SineVoltage;

  model Ground
    Pin p;
  equation
    p.v = 0;
  end Ground;
end Circuits;

model B6Rectifier "three-phase diode bridge into an RL load"
  import Circuits.*;
  constant Real pi = 3.14159265358979323846;
  SineVoltage SA(V = 325, f = 50, phase = 0);
  SineVoltage SB(V = 325, f = 50, phase = -2*pi/3);
  SineVoltage SC(V = 325, f = 50, phase = -4*pi/3);
  IdealDiode D1, D3, D5 "phases to the positive rail";
  IdealDiode D4, D6, D2 "negative rail to the phases";
  Resistor R(R = 10);
  Inductor L(L = 0.01, i(start = 0));
  Ground G;
equation
  connect(SA.n, G.p);
  connect(SB.n, G.p);
  connect(SC.n, G.p);
  connect(SA.p, D1.p);
  connect(SB.p, D3.p);
  connect(SC.p, D5.p);
  connect(D1.n, R.p);
  connect(D3.n, R.p);
  connect(D5.n, R.p);
  connect(R.n, L.p);
  connect(L.n, D4.p);
  connect(L.n, D6.p);
  connect(L.n, D2.p);
  connect(D4.n, SA.p);
  connect(D6.n, SB.p);
  connect(D2.n, SC.p);
  annotation(experiment(StopTime = 0.04));
end B6Rectifier;
