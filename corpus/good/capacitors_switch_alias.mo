// capacitors_switch.mo written with the switch voltage as its own variable,
// u = v1 - v2, and the closed switch saying u = 0. The canonical formulation
// resolves u once (mode_change/normalize.h); the restart is that of the
// direct writing: impulsive, i of order 1, both voltages 1 V afterwards, the
// charge C1*v1 + C2*v2 = 4 mC conserved, u+ = 0 (before issue 17 this
// writing was reported undetermined).
// status: good
// expect: restart-impulsive at 24:3 "i of order 1"
model CapacitorsSwitchAlias "Two capacitors joined by a switch (switch voltage as a variable)"
  parameter Real C1 = 1e-3, C2 = 3e-3 "capacitances (F)";
  Real v1(start = 4, fixed = true), v2(start = 0, fixed = true) "capacitor voltages";
  Real i "current from capacitor 1 to capacitor 2";
  Real u "switch voltage";
  Boolean closed(start = false);
equation
  C1*der(v1) = -i;
  C2*der(v2) = i;
  u = v1 - v2;
  if closed then
    u = 0;
  else
    i = 0;
  end if;
  when time >= 0.1 then
    closed = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end CapacitorsSwitchAlias;
