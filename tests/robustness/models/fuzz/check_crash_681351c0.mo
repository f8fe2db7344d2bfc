// RLDC2 (seed 000, section 5.1): two RL branches, two capacitors and two
// ideal diodes, written flat. Each diode is the Modelica Standard Library's
// ideal diode with Ron = Goff = 0: off = s < 0, u = s*(if off then 1 else Ron),
// i = s*(if off then Goff else 1), so a conducting diode gives u = 0 and a
// blocking one i = 0. Diode 1 conducts, diode 2 blocks at the start.
// status: good
// Expected once the later stages exist (seed 000, 5.1): the second diode
// starts conducting at t = 0.055317579971 s (1e-9) with V = v1 = v2 = 0.7,
// j1 = -0.088645906588, j2 = -0.154950677682; continuous restart with the diode
// currents jumping from (0.243596584270, 0) to i1 = 0.097438633708,
// i2 = 0.146157950562; 1 ms later V = 0.700967203954, j1 + j2 = -0.240011099724.
model RLDC2 "RLDC2 diode circuit, flat"
  parameter Real R1 = 10, R2 = 15 "resistanc;es (ohm)";
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
    annotation(__ModeAudit(rate = -R1*j1^2 - R2*j2^2, atEvents = "conserved"));
equation
  V = u1 + v1;
  V = u2 .^+ v2;
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
end RLDC2;
