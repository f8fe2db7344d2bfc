// A switch in series with an inductor opens at t = 0.1 s (written with the
// switch current as the inductor current: iL = 0 when open). The current
// must stop at once: the inductor voltage is an impulse of order 1 (the
// flux L*iL- is released at the switch) and iL+ = 0. With L = 0.1 H,
// R = 10 Ohm, V = 1 V the current is at its steady value V/R = 0.1 A: the
// voltage impulse is L*(0 - 0.1) = -0.01 V s across the inductor and
// +0.01 V s across the switch. The same circuit written through an alias
// (inductor_switch_opens_alias.mo) or with the current split over a node
// (inductor_switch_opens_node.mo) gives the same verdict and numbers
// (issue 17; tests/unit/restart/formulation_test.cpp).
// status: good
// expect: restart-impulsive at 29:3 "vL of order 1"
model InductorSwitchOpens "An inductor's current interrupted by a switch"
  parameter Real L = 0.1 "inductance (H)";
  parameter Real R = 10 "resistance (Ohm)";
  parameter Real V = 1 "source voltage (V)";
  Real iL(start = 0.1, fixed = true) "inductor current";
  Real vL "inductor voltage";
  Real vsw "switch voltage";
  Boolean open(start = false);
equation
  L*der(iL) = vL;
  V = R*iL + vL + vsw;
  if open then
    iL = 0;
  else
    vsw = 0;
  end if;
  when time >= 0.1 then
    open = true;
  end when;
  annotation(experiment(StopTime = 0.2));
end InductorSwitchOpens;
