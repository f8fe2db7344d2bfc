within Circuits.Interfaces;
partial model ConditionalHeatPort "An optional heat port that takes the dissipated power"
  parameter Boolean useHeatPort = false "true: the heat port exists";
  parameter SI.Temperature T = 293.15 "fixed device temperature when there is no heat port";
  HeatPort heatPort(final T = T_heatPort, final Q_flow = -LossPower) if useHeatPort;
  SI.Power LossPower "dissipated power";
  SI.Temperature T_heatPort "device temperature";
equation
  if not useHeatPort then
    T_heatPort = T;
  end if;
end ConditionalHeatPort;
