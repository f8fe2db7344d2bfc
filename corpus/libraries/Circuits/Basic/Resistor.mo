within Circuits.Basic;
model Resistor "Resistor with a temperature coefficient and an optional heat port"
  parameter SI.Resistance R = 1 "resistance at T_ref";
  parameter SI.Temperature T_ref = 300.15 "reference temperature";
  parameter SI.LinearTemperatureCoefficient alpha = 0 "temperature coefficient";
  extends OnePort;
  extends ConditionalHeatPort(T = T_ref);
  SI.Resistance R_actual "resistance at the device temperature";
equation
  R_actual = R*(1 + alpha*(T_heatPort - T_ref));
  v = R_actual*i;
  LossPower = v*i;
end Resistor;
