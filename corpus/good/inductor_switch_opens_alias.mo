// inductor_switch_opens.mo written through an alias: the switch has its own
// current isw, equal to the inductor's, and the open switch says isw = 0.
// Flattening removes the alias; the verdict and numbers are those of the
// direct writing: impulsive, the voltages of order 1, iL+ = 0.
// status: good
// expect: restart-impulsive at 25:3 "vL of order 1"
model InductorSwitchOpensAlias "An inductor's current interrupted by a switch (alias)"
  parameter Real L = 0.1 "inductance (H)";
  parameter Real R = 10 "resistance (Ohm)";
  parameter Real V = 1 "source voltage (V)";
  Real iL(start = 0.1, fixed = true) "inductor current";
  Real vL "inductor voltage";
  Real vsw "switch voltage";
  Real isw "switch current";
  Boolean open(start = false);
equation
  L*der(iL) = vL;
  V = R*iL + vL + vsw;
  isw = iL;
  if open then
    isw = 0;
  else
    vsw = 0;
  end if;
  when time >= 0.1 then
    open = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end InductorSwitchOpensAlias;
