// A constraint on an explicit time switched on by a time event: from
// t = 0.5 the position x is held to the path sin(time), before that it is
// simply 0. At the switch x must take the path's value at the event time:
// the restart gives x+ = sin(0.5) = 0.479425538604 (and v+ = cos(0.5) =
// 0.877582561890), which needs the event time in the restart system (it
// was once evaluated at time 0, giving x+ = 0 and a consistency residual of
// 0.479 in the new mode). At t = 1, x = sin(1) = 0.841470984808. The
// assert x <= time holds throughout, also at the restart values checked at
// the event (0.479 <= 0.5; at time 0 it would fail).
// status: good
// stage: simulation
model ConstraintFollowsTime "A path constraint switched on at t = 0.5"
  Real x(start = 0) "position";
  Real v "velocity";
  Real y(start = 0, fixed = true) "elapsed time, a state of both modes";
  Boolean locked(start = false);
equation
  der(y) = 1;
  if locked then
    x = sin(time);
    v = der(x);
  else
    x = 0;
    v = 0;
  end if;
  when time > 0.5 then
    locked = true;
  end when;
  assert(x <= time, "the position stays behind the elapsed time");
  annotation(experiment(StopTime = 1));
end ConstraintFollowsTime;
