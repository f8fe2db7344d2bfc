// Two independent clutches (two copies of clutch.mo with other inertias and
// speeds) engaging at the same time event t = 0.1 s: the simulation fires
// both transitions at one instant and restarts with the combined transition
// to engaged1 = engaged2 = true (simulation/combined_restart.h), each pair
// at its own momentum average: (J1*w1 + J2*w2)/(J1 + J2) = (2*3 + 1*0)/3 =
// 2 rad/s and (J3*w3 + J4*w4)/(J3 + J4) = (1*(-1) + 3*5)/4 = 3.5 rad/s
// (tests/unit/simulation/combined_restart_test.cpp, to 1e-10). The run
// reaches the stop time. Each pair's momentum is declared conserved at
// events: applying one clutch's restart alone to the combined target (the
// old behaviour) kept w3 = w4 = -1, pair 2's momentum 14 -> -4, which the
// event verification reports.
// status: good
// stage: simulation
// expect: restart-impulsive at 49:3 "engaged1=false,engaged2=false -> engaged1=true,engaged2=false"
// expect: restart-impulsive at 52:3 "engaged1=false,engaged2=false -> engaged1=false,engaged2=true"
// expect: restart-impulsive at 52:3 "engaged1=true,engaged2=false -> engaged1=true,engaged2=true"
// expect: restart-impulsive at 49:3 "engaged1=false,engaged2=true -> engaged1=true,engaged2=true"
// The modes stage sees that both guards are time - 0.1 and studies their
// combined transition statically as well (modes/simultaneous.h); the run
// applies that restart.
// expect: restart-impulsive at 49:3 "engaged1=false,engaged2=false -> engaged1=true,engaged2=true"
model TwoClutchesSameInstant "Two clutches engaging at one instant"
  parameter Real J1 = 2, J2 = 1 "inertias of pair 1 (kg m2)";
  parameter Real J3 = 1, J4 = 3 "inertias of pair 2 (kg m2)";
  Real w1(start = 3, fixed = true), w2(start = 0, fixed = true) "pair 1 speeds";
  Real w3(start = -1, fixed = true), w4(start = 5, fixed = true) "pair 2 speeds";
  Real tau1 "clutch torque on shaft 2";
  Real tau2 "clutch torque on shaft 4";
  Boolean engaged1(start = false), engaged2(start = false);
  Real M1 = J1*w1 + J2*w2 "angular momentum of pair 1"
    annotation(__ModeAudit(rate = 0, atEvents = "conserved"));
  Real M2 = J3*w3 + J4*w4 "angular momentum of pair 2"
    annotation(__ModeAudit(rate = 0, atEvents = "conserved"));
equation
  J1*der(w1) = -tau1;
  J2*der(w2) = tau1;
  J3*der(w3) = -tau2;
  J4*der(w4) = tau2;
  if engaged1 then
    w1 = w2;
  else
    tau1 = 0;
  end if;
  if engaged2 then
    w3 = w4;
  else
    tau2 = 0;
  end if;
  when time >= 0.1 then
    engaged1 = true;
  end when;
  when time >= 0.1 then
    engaged2 = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end TwoClutchesSameInstant;
