within Circuits.Interfaces;
connector HeatPort "Thermal port"
  SI.Temperature T "port temperature";
  flow SI.HeatFlowRate Q_flow "heat flow into the port";
end HeatPort;
