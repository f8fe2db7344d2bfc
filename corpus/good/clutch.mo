// Two shafts joined by an ideal clutch that engages at t = 0.1 s: the
// speeds must become equal at once, so an impulsive torque acts between the
// shafts. The restart conserves the total angular momentum J1*w1 + J2*w2,
// found without a declaration. With J1 = 2, J2 = 1, w1 = 3 rad/s, w2 = 0 and
// no load, both turn at 2 rad/s afterwards; the kinetic energy falls from
// 9 J to 6 J (declared nonincreasing).
// status: good
// expect: restart-impulsive at 24:3 "tau of order 1"
model Clutch "Two shafts joined by an engaging clutch"
  parameter Real J1 = 2, J2 = 1 "inertias (kg m2)";
  Real w1(start = 3, fixed = true), w2(start = 0, fixed = true) "shaft speeds";
  Real tau "clutch torque on shaft 2";
  Boolean engaged(start = false);
  Real T = (J1*w1^2 + J2*w2^2)/2 "kinetic energy"
    annotation(__ModeAudit(rate = 0, atEvents = "nonincreasing"));
equation
  J1*der(w1) = -tau;
  J2*der(w2) = tau;
  if engaged then
    w1 = w2;
  else
    tau = 0;
  end if;
  when time >= 0.1 then
    engaged = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end Clutch;
