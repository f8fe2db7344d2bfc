// Two balls of different masses dropped from the same height at rest, each
// onto its own floor, landing plastically at the same instant
// t = sqrt(2*h0/g) with speed sqrt(2*g*h0): the contact mode (h = 0, as the
// taut rope of cup_and_ball.mo) makes each landing impulsive, the floor
// force f of order 1 and v+ = 0. Both guards cross zero at one instant; the
// simulation restarts with the combined transition to landed1 = landed2 =
// true, both root facts h1 = 0 and h2 = 0 holding (simulation/
// combined_restart.h): both velocities are 0 afterwards and the run reaches
// the stop time, the balls resting on their floors (f = m*g).
// status: good
// stage: simulation
// expect: restart-impulsive at 41:3 "landed1=false,landed2=false -> landed1=true,landed2=false"
// expect: restart-impulsive at 44:3 "landed1=false,landed2=false -> landed1=false,landed2=true"
// expect: restart-impulsive at 44:3 "landed1=true,landed2=false -> landed1=true,landed2=true"
// expect: restart-impulsive at 41:3 "landed1=false,landed2=true -> landed1=true,landed2=true"
model TwoBallsPlasticSameInstant "Two balls landing plastically at one instant"
  parameter Real m1 = 1, m2 = 2 "masses (kg)";
  parameter Real g = 9.81 "gravity";
  Real h1(start = 1, fixed = true), v1(start = 0, fixed = true) "ball 1";
  Real h2(start = 1, fixed = true), v2(start = 0, fixed = true) "ball 2";
  Real f1 "floor force on ball 1";
  Real f2 "floor force on ball 2";
  Boolean landed1(start = false), landed2(start = false);
equation
  der(h1) = v1;
  m1*der(v1) = f1 - m1*g;
  der(h2) = v2;
  m2*der(v2) = f2 - m2*g;
  if landed1 then
    h1 = 0;
    assert(f1 >= 0, "the floor can push but not pull");
  else
    f1 = 0;
  end if;
  if landed2 then
    h2 = 0;
    assert(f2 >= 0, "the floor can push but not pull");
  else
    f2 = 0;
  end if;
  when h1 <= 0 then
    landed1 = true;
  end when;
  when h2 <= 0 then
    landed2 = true;
  end when;
  annotation(experiment(StopTime = 0.6));
end TwoBallsPlasticSameInstant;
