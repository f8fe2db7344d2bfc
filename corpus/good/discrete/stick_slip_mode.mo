// A block on a rough surface under the force u = 2*sin(time), with the
// friction element's finite-state machine of the Modelica Standard Library
// written in the same idiom (our own model): an Integer `mode` defined by
// an equation over its own left limit and two start flags. Stuck, the block
// holds v = 0 until |u| exceeds the static limit F0; the start flag then
// lets it accelerate with sliding friction Fc, and v > 0 (or v < 0) at once
// makes the mode Forward (Backward); when v returns to 0 the mode is Stuck
// again, or starts the other way at the same instant if |u| exceeds F0
// there. The modes the logic reaches: Stuck, Stuck starting forward, Stuck
// starting backward, Forward, Backward.
// Expected numbers: the first event at t = asin(F0/2) = pi/6 (u = F0).
// status: good
// stage: simulation
model StickSlipMode "Coulomb friction with an Integer mode defined by an equation"
  constant Integer Backward = -1;
  constant Integer Stuck = 0;
  constant Integer Forward = 1;
  parameter Real m = 1 "mass";
  parameter Real F0 = 1 "static friction limit";
  parameter Real Fc = 0.5 "sliding friction";
  Real v(start = 0, fixed = true) "velocity";
  Real u "applied force";
  Real a "acceleration";
  Boolean startForward(start = false);
  Boolean startBackward(start = false);
  Integer mode(start = Stuck);
equation
  u = 2*sin(time);
  der(v) = a;
  m*a = if mode == Forward or startForward then u - Fc
        else if mode == Backward or startBackward then u + Fc
        else 0;
  startForward = pre(mode) == Stuck and (u > F0 or pre(startForward) and u > Fc);
  startBackward = pre(mode) == Stuck and (u < -F0 or pre(startBackward) and u < -Fc);
  mode = if (pre(mode) == Forward or startForward) and v > 0 then Forward
         else if (pre(mode) == Backward or startBackward) and v < 0 then Backward
         else Stuck;
  annotation(experiment(StopTime = 10));
end StickSlipMode;
