// A capacitor charged from a source vs through a resistor R and clamped at
// Vz by an ideal Zener diode. While the clamp conducts the capacitor
// voltage is held at Vz (its current C*der(v) is then 0, written so: the
// clamp takes the resistor's current), and what is left is a resistive
// network with no states, which the simulation follows without
// integrating (analyzer/simulation/algebraic_segment.cpp). At t = T the
// source is switched off: the resistor's current reverses, the clamp's
// current would become negative and it releases at once (a cascade of two
// restarts at one instant, the second decided in a mode without states),
// and the capacitor discharges through R.
// Expected numbers (closed form, V0 = 10 V, R*C = 1 s, Vz = 5 V, T = 3 s):
// v = 10 (1 - exp(-t)) reaches the clamp at t = ln 2 = 0.693147180560;
// the source switches off at t = 3 and the clamp releases at the same
// instant (2 restarts); then v = 5 exp(-(t - 3)), so v(4) = 5/e =
// 1.83939720586 V and i(4) = -v(4)/R = -0.00183939720586 A.
// tests/unit/simulation/algebraic_mode_test.cpp checks them to 1e-9.
// status: good
// stage: simulation
model ZenerClamp "a capacitor charged through a resistor and clamped by an ideal Zener diode"
  parameter Real V0 = 10 "source voltage while on (V)";
  parameter Real T = 3 "the source is switched off (s)";
  parameter Real R = 1000 "resistance (Ohm)";
  parameter Real C = 1e-3 "capacitance (F)";
  parameter Real Vz = 5 "clamp voltage (V)";
  Real vs "source voltage (V)";
  Real v(start = 0, fixed = true) "capacitor voltage (V)";
  Real i "current through the resistor (A)";
  Real iz "current through the clamp (A)";
  Boolean clamped(start = false) "the Zener diode conducts";
equation
  vs = if time < T then V0 else 0;
  vs - v = R*i;
  if clamped then
    v = Vz;
    iz = i;
  else
    C*der(v) = i;
    iz = 0;
  end if;
  when v > Vz then
    clamped = true;
  end when;
  when iz < 0 then
    clamped = false;
  end when;
  annotation(experiment(StopTime = 4));
end ZenerClamp;
