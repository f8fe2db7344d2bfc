// A tank draining through its outlet, written with the fluid libraries'
// idiom q = if noEvent(h > 0) then c*sqrt(h) else 0 (Modelica 3.6, 3.7.4:
// the relation is taken literally). No mode and no event: the branch is
// chosen wherever q is evaluated, and the unselected sqrt(h) of a level
// that integration leaves a little below 0 does not reach q.
// Expected numbers (closed form, Torricelli with c = 1, h(0) = 1):
// sqrt(h) = 1 - t/2 until the tank is empty at t = 2, then h = 0:
// h(1) = 0.25, h(1.5) = 0.0625, h(3) = 0 (to the integration's
// accuracy at the non-smooth emptying); no event.
// status: good
// stage: simulation
model NoEventTank "a tank draining through its outlet, the outflow written with noEvent"
  parameter Real c = 1 "outlet coefficient";
  Real h(start = 1, fixed = true) "level";
  Real q "outflow";
  Real q_outer "the same, noEvent around the whole if-expression";
equation
  q = if noEvent(h > 0) then c*sqrt(h) else 0;
  q_outer = noEvent(if h > 0 then c*sqrt(h) else 0);
  der(h) = -q;
  annotation(experiment(StopTime = 3));
end NoEventTank;
