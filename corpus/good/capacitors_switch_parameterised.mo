// capacitors_switch.mo with the switch in the library's parameterised form:
// v = s*(if closed then Ron else 1), i = s*(if closed then 1 else Goff),
// ideal (Ron = Goff = 0). The curve parameter s appears, at the instant of
// the switch, only in the new mode's disabled row i = s: it is nothing the
// restart must determine. The restart is that of the direct writing:
// impulsive, i of order 1, both voltages 1 V afterwards, the charge
// conserved (before issue 17 this writing was reported undetermined).
// status: good
// expect: restart-impulsive at 25:3 "i of order 1"
model CapacitorsSwitchParameterised "Two capacitors joined by an ideal switch (parameterised)"
  parameter Real C1 = 1e-3, C2 = 3e-3 "capacitances (F)";
  parameter Real Ron = 0 "closed switch resistance (Ohm)";
  parameter Real Goff = 0 "open switch conductance (S)";
  Real v1(start = 4, fixed = true), v2(start = 0, fixed = true) "capacitor voltages";
  Real i "current from capacitor 1 to capacitor 2";
  Real v "switch voltage";
  Real s "switch curve parameter";
  Boolean closed(start = false);
equation
  C1*der(v1) = -i;
  C2*der(v2) = i;
  v = v1 - v2;
  v = s*(if closed then Ron else 1);
  i = s*(if closed then 1 else Goff);
  when time >= 0.1 then
    closed = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end CapacitorsSwitchParameterised;
