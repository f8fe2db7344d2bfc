// Three bodies on a line, m1 = 1, m2 = 2, m3 = 3 kg. Body 1 (2 m/s) hits
// body 2 (at rest) at t = 0.25 s and sticks: both move at 2/3 m/s. The pair
// hits body 3 (at rest) at t = 1 s and sticks while the first contact
// persists: all three move at 1/3 m/s, the momentum 2 kg m/s conserved. In
// that second transition the persisting contact x1 = x2 is a fact at the
// data (x1@1 - x2@1 = 0 is entailed by the previous mode) and its velocity
// copy at the tail follows from the earlier copies by the Euler identities
// (mode_change/mode_change_array.h); before issue 17 it was reported
// undetermined.
// status: good
// stage: simulation
// expect: restart-impulsive at 43:3 "c12=false,c23=false -> c12=true,c23=false"
// expect: restart-impulsive at 46:3 "c12=false,c23=false -> c12=false,c23=true"
// expect: restart-impulsive at 46:3 "c12=true,c23=false -> c12=true,c23=true"
// expect: restart-impulsive at 43:3 "c12=false,c23=true -> c12=true,c23=true"
model ThreeBodiesSecondContact "A second plastic contact while the first persists"
  parameter Real m1 = 1, m2 = 2, m3 = 3 "masses (kg)";
  Real x1(start = 0, fixed = true), v1(start = 2, fixed = true) "body 1";
  Real x2(start = 0.5, fixed = true), v2(start = 0, fixed = true) "body 2";
  Real x3(start = 1, fixed = true), v3(start = 0, fixed = true) "body 3";
  Real f12 "contact force of body 1 on body 2";
  Real f23 "contact force of body 2 on body 3";
  Boolean c12(start = false), c23(start = false);
  Real P = m1*v1 + m2*v2 + m3*v3 "momentum"
    annotation(__ModeAudit(rate = 0, atEvents = "conserved"));
equation
  der(x1) = v1;
  der(x2) = v2;
  der(x3) = v3;
  m1*der(v1) = -f12;
  m2*der(v2) = f12 - f23;
  m3*der(v3) = f23;
  if c12 then
    x1 = x2;
  else
    f12 = 0;
  end if;
  if c23 then
    x2 = x3;
  else
    f23 = 0;
  end if;
  when x1 - x2 >= 0 then
    c12 = true;
  end when;
  when x2 - x3 >= 0 then
    c23 = true;
  end when;
  annotation(experiment(StopTime = 1.5));
end ThreeBodiesSecondContact;
