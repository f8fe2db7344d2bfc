// inductor_switch_opens.mo with the inductor current split over a node: the
// switch carries isw, a branch that is always open carries id = 0, and
// isw + id = iL. The canonical formulation resolves id = 0 and then isw = iL
// once for every route (mode_change/normalize.h), and the Euler closure
// gives no identity to the algebraic currents, so the verdict and numbers
// are those of the direct writing: impulsive, the voltages of order 1,
// iL+ = 0 (before issue 17 this writing was reported undetermined).
// status: good
// expect: restart-impulsive at 30:3 "vL of order 1"
model InductorSwitchOpensNode "An inductor's current interrupted by a switch (node)"
  parameter Real L = 0.1 "inductance (H)";
  parameter Real R = 10 "resistance (Ohm)";
  parameter Real V = 1 "source voltage (V)";
  Real iL(start = 0.1, fixed = true) "inductor current";
  Real vL "inductor voltage";
  Real vsw "switch voltage";
  Real isw "switch current";
  Real id "current of the open branch";
  Boolean open(start = false);
equation
  L*der(iL) = vL;
  V = R*iL + vL + vsw;
  isw + id = iL;
  id = 0;
  if open then
    isw = 0;
  else
    vsw = 0;
  end if;
  when time >= 0.1 then
    open = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end InductorSwitchOpensNode;
