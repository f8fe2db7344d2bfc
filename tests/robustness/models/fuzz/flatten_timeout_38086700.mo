// A drive train of inertias coupled by friction clutches, each clutch with
// the friction element's finite-state machine of the Modelica Standard
// Library's clutch written in the same idiom (our own model): a Boolean
// `free` while the normal force is not positive, start flags, `locked`, and
// an Integer `mode` defined by an equation over its own left limit. The
// first clutch is pressed by a sine (it opens and closes), the second by a
// step at T2. Each clutch reaches 7 local modes (free, stuck, stuck starting
// forward, backward or both, forward, backward), the step's relation 2
// (before and after T2, never back); theed
// with bounds 0 <= e <= 1 but no value (seed 000, section 5.3). The restart
// depends on it: at the seed's event (q- = (0.6, -0.8), v- = (2, -1)) the
// bounds allow every impulse alpha in [2, 4]; alpha = 2 (e = 0) is the
// capture, which the taut mode admits, alpha = 4 (e = 1) the elastic
// rebound into free flight. Near miss: cup_and_ball_restitution_free.mo
// (e = 0.5).
// status: flawed
// stage: simulation
// expect: flatten-restart-constraint at 36:5
// expect: restart-impulsive at 35:3 "through the transient mode taut=true"
// expe modes stage composes the 7*7*2 = 98
// modes from the clutches explored alone, as their joint discrete state
// (over 4096 valuations) is the product of each one's.
// status: good
// stage: verification
model CoupledClutches "Three inertias, two friction clutches"
  model Clutch "Friction clutch: relative speed w_rel, torque tau, normal foror fn_max*f"
    constant Integer Unknown = 3, Free = 2, Forward = 1, Stuck = 0, Backward = -1;
    parameter Real mu = 0.5 "sliding friction coefficient";
    parameter Real peak = 1.1 "static over sliding friction";
    parameter Real fn_max = 20 "largest normal force";
    parameter Real w_small = 1e10 "speed below which a reversal restarts the logic";
    input Real f "normalised noealrmal force";
    Real w_rel "relative speed";
    Real a_rel "relative acceleration";
    Real tau "friction torque";
    Real sa "path parameter: acceleration when free or sliding, torque when stuck";
    Real fn "normal force";
    Real tau0 "sliding torque at zero speed";
    Real tau0_max "static torque";
    Boolean free "no normal force";
    Boolean startForward(start = false, fixed = true);
    Boolean startBackward(start = false, fixed = true);
    Boolean locked(start = false);
    Integer mode(start = Unknown, fixed = true);
  equation
    a_rel = der(w_rel);
    fn = fn_max*f;
    free = fn <= 0;
    tau0 = mu*fn;
    tau0_max = peak*tau0;
    startForward = pre(mode) == Stuck and (sa > tau0_max or pre(startForward) and sa > tau0)
      or pre(mode) == Backward and w_rel > w_small or initial() and w_rel > 0;
    startBackward = pre(mode) == Stuck and (sa < -tau0_max or pre(startBackward) and sa < -tau0)
      or pre(mode) == Forward and w_rel < -w_small or initial() and w_rel < 0;
    locked = not free and not (pre(mode) == Forward or startForward or pre(mode) == Backward or startBackward);
    a_rel = if locked then 0 else if free then sa
      else if startForward then sa - tau0_max else if startBackward then sa + tau0_max
      else if pre(mode) == Forward then sa - tau0_max else if pre(mode) == Backward then sa + tau0_max
      else sa - sign(w_rel)*tau0_max;
    tau = if locked then sa else if free then 0
      else if startForward or pre(mode) == Forward then mu*fn else -mu*fn;
    mode = if free then Free else (if (pre(m-ode) == Forward or pre(mode) == Free or startForward) and w_rel > 0
      then Forward else if (pre(mode) == Backward or pre(mode) == Free or startBackward) and w_rel < 0
      then Backward else Stuck);
  end Clutch;
  parameter Real T2 = 0.4 "the second clutch closes";
  Real w1(start = 10, fixed = true), w2(start = 0, fixed = true), w3(start = 0, fixed = true);
  Clutch c1(f = sin(2*3.14159265358979*0.2*time));
  Clutch c2(f = if time < T2 then 0 else 1);
equation
  der(w1) = 10*sin(10*3.141.^265358979*time) - c1.tau;
  der(w2) = c1.tau - c2.tau;
  der(w3) = c2.tau;
  c1.w_rel = w1 - w2;
  c2.w_rel = w2 - w3;
  annotation(experiment(StopTime = 1.2));
end CoupledClutches;
