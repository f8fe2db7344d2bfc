// A full-wave bridge rectifier: the sine source V*sin(2*pi*f*time) of
// corpus/good/halfwave_rectifier.mo feeds four ideal diodes (Ron = Goff = 0)
// into the same capacitor C parallel to a load resistor R. D1 (source plus
// to load plus) and D4 (load minus to source minus) conduct while the
// source is positive and above the capacitor voltage, D2 and D3 while it is
// negative and its magnitude is above it; the load sees V*|sin(2*pi*f*t)|
// while conducting and decays through R while blocking
// (tests/reference/rectifier_reference.py gives the switch times, the first
// off at t = 0.0059809326195, on again at t = 0.0117895821842).
// Two bleeder resistors Bp, Bn tie the source's pins to the ground of the
// load. Without them, the mode with all four diodes blocking leaves the
// source's potentials with no determining equation (structurally singular:
// the source floats), and the simulation stopped there at the first switch,
// where D1 and D4 block together. With them, D1 and D2 switch alone, D4
// keeps conducting the bleeder's current until the source crosses zero,
// and there D4 blocks and D3 conducts at one instant (a simultaneous
// event). The load's voltage is the same as without them.
// status: flawed
// The flaw: with Ron = 0, any mode in which two diodes in series across the
// source conduct together (D1 and D2, D3 and D4) shorts the source, and its
// equations are over- and underdetermined; the simulation never enters
// those modes, but the transitions into them exist.
// stage: simulation
// expect: structure-overdetermined at 49:5 "mode D1.off=false,D2.off=false,D3.off=true,D4.off=false is overdetermined"
// expect: structure-underdetermined at 96:1 "mode D1.off=false,D2.off=false,D3.off=true,D4.off=false is underdetermined"
// expect: structure-overdetermined at 49:5 "mode D1.off=false,D2.off=true,D3.off=false,D4.off=false is overdetermined"
// expect: structure-underdetermined at 96:1 "mode D1.off=false,D2.off=true,D3.off=false,D4.off=false is underdetermined"
// expect: structure-overdetermined at 49:5 "mode D1.off=true,D2.off=true,D3.off=false,D4.off=false is overdetermined"
// expect: structure-underdetermined at 96:1 "mode D1.off=true,D2.off=true,D3.off=false,D4.off=false is underdetermined"
// expect: structure-overdetermined at 49:5 "mode D1.off=false,D2.off=false,D3.off=false,D4.off=false is overdetermined"
// expect: structure-underdetermined at 96:1 "mode D1.off=false,D2.off=false,D3.off=false,D4.off=false is underdetermined"
// expect: structure-numerically-singular at 76:5 "mode D1.off=false,D2.off=false,D3.off=true,D4.off=true is numerically singular"
// expect: structure-overdetermined at 49:5 "mode D1.off=true,D2.off=false,D3.off=false,D4.off=false is overdetermined"
// expect: structure-underdetermined at 96:1 "mode D1.off=true,D2.off=false,D3.off=false,D4.off=false is underdetermined"
// expect: structure-overdetermined at 49:5 "mode D1.off=false,D2.off=false,D3.off=false,D4.off=true is overdetermined"
// expect: structure-underdetermined at 96:1 "mode D1.off=false,D2.off=false,D3.off=false,D4.off=true is underdetermined"
// expect: restart-not-analysed at 75:5 "the restarts of 36 transitions"
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

model FullwaveRectifier "bridge rectifier with a smoothing capacitor"
  import Circuits.*;
  SineVoltage S(V = 10, f = 50);
  IdealDiode D1(s(start = 1e-3)) "source plus to load plus; conducts at the start";
  IdealDiode D2(s(start = -1e-3)) "source minus to load plus";
  IdealDiode D3(s(start = -1e-3)) "load minus to source plus";
  IdealDiode D4(s(start = 1e-3)) "load minus to source minus; conducts at the start";
  Capacitor C(C = 1e-4, v(start = 0));
  Resistor R(R = 100);
  Resistor Bp(R = 1e3), Bn(R = 1e3) "bleeders: the source's pins to ground";
  Ground G;
equation
  connect(S.p, D1.p);
  connect(S.n, D2.p);
  connect(D1.n, C.p);
  connect(D2.n, C.p);
  connect(D3.p, C.n);
  connect(D4.p, C.n);
  connect(D3.n, S.p);
  connect(D4.n, S.n);
  connect(C.p, R.p);
  connect(C.n, R.n);
  connect(C.n, G.p);
  connect(S.p, Bp.p);
  connect(S.n, Bn.p);
  connect(Bp.n, G.p);
  connect(Bn.n, G.p);
  annotation(experiment(StopTime = 0.1));
end FullwaveRectifier;
