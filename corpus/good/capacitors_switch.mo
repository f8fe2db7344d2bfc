// Two capacitors joined by an ideal switch that closes at t = 0.1 s: the
// voltages must become equal at once, so a charge-transfer impulse flows
// (seed 000, end of 5.1). The restart conserves the total charge
// C1*v1 + C2*v2, which modeaudit finds without a declaration; the energy
// (C1*v1^2 + C2*v2^2)/2 falls (declared nonincreasing). With C1 = 1 mF,
// C2 = 3 mF, v1 = 4 V, v2 = 0 V: both end at 1 V and the energy drops from
// 8 mJ to 2 mJ.
// status: good
// expect: restart-impulsive at 25:3 "i of order 1"
model CapacitorsSwitch "Two capacitors joined by a switch"
  parameter Real C1 = 1e-3, C2 = 3e-3 "capacitances (F)";
  Real v1(start = 4, fixed = true), v2(start = 0, fixed = true) "capacitor voltages";
  Real i "current from capacitor 1 to capacitor 2";
  Boolean closed(start = false);
  Real W = (C1*v1^2 + C2*v2^2)/2 "stored energy"
    annotation(__ModeAudit(rate = 0, atEvents = "nonincreasing"));
equation
  C1*der(v1) = -i;
  C2*der(v2) = i;
  if closed then
    v1 = v2;
  else
    i = 0;
  end if;
  when time >= 0.1 then
    closed = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end CapacitorsSwitch;
