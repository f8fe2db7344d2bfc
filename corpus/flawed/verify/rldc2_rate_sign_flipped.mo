// RLDC2 (seed 000, section 5.1) with its energy balance declared with the
// wrong sign: the resistors would feed energy in, dE/dt = +R1*j1^2 + R2*j2^2.
// The true balance -R1*j1^2 - R2*j2^2 holds in every mode (corpus/good/
// rldc2.mo), so the declaration fails in all four with the residual
// -2*(R1*j1^2 + R2*j2^2) on the consistent states.
// status: flawed
// expect: verify-rate-violated at 25:16 "mode off1=false,off2=true: dE/dt - (10*j1^2 + 15*j2^2) = -20*j1^2 - 30*j2^2"
// expect: verify-rate-violated at 25:16 "mode off1=true,off2=true"
// expect: verify-rate-violated at 25:16 "mode off1=false,off2=false"
// expect: verify-rate-violated at 25:16 "mode off1=true,off2=false: dE/dt - (10*j1^2 + 15*j2^2) = -20*j1^2 - 30*j2^2"
model RLDC2RateSignFlipped "RLDC2 with the dissipation sign flipped"
  parameter Real R1 = 10, R2 = 15 "resistances (ohm)";
  parameter Real L1 = 1, L2 = 1.5 "inductances (H)";
  parameter Real C1 = 0.1, C2 = 0.15 "capacitances (F)";
  parameter Real Ron = 0 "diode forward resistance";
  parameter Real Goff = 0 "diode backward conductance";
  Real v1(start = 0.5, fixed = true), v2(start = 0.7, fixed = true) "capacitor voltages";
  Real j1(start = -0.2, fixed = true), j2(start = -0.3, fixed = true) "inductor currents";
  Real i1, i2 "diode currents";
  Real u1, u2 "diode voltages";
  Real V "common node voltage";
  Real s1(start = 0.45), s2(start = -0.2) "diode curve parameters";
  Boolean off1, off2;
  Real E = (L1*j1^2 + L2*j2^2 + C1*v1^2 + C2*v2^2)/2
    annotation(__ModeAudit(rate = R1*j1^2 + R2*j2^2, atEvents = "conserved"));
equation
  V = u1 + v1;
  V = u2 + v2;
  i1 + i2 + j1 + j2 = 0;
  L1*der(j1) = V - R1*j1;
  L2*der(j2) = V - R2*j2;
  i1 = C1*der(v1);
  i2 = C2*der(v2);
  off1 = s1 < 0;
  u1 = s1*(if off1 then 1 else Ron);
  i1 = s1*(if off1 then Goff else 1);
  off2 = s2 < 0;
  u2 = s2*(if off2 then 1 else Ron);
  i2 = s2*(if off2 then Goff else 1);
  annotation(experiment(StopTime = 0.1));
end RLDC2RateSignFlipped;
