within Drives;
package Thermal "Lumped thermal bodies that share the system's ambient through inner/outer"
  model Ambient "The surroundings of a system: declare one, inner, at the top"
    parameter SI.Temperature T_mean = 293.15 "mean temperature";
    parameter SI.Temperature T_swing = 0 "amplitude of the periodic swing";
    parameter SI.Time period = 86400 "period of the swing";
    constant Real twoPi = 6.283185307179586;
    SI.Temperature T "temperature now";
  equation
    T = T_mean + T_swing*sin(twoPi*time/period);
    annotation(defaultComponentName = "ambient", defaultComponentPrefixes = "inner");
  end Ambient;

  model Body "A thermal mass losing heat to the ambient of the system it is in"
    outer Ambient ambient "the ambient declared inner above";
    outer parameter SI.Temperature T_start "the temperature every body starts from, declared inner above";
    parameter SI.HeatCapacity C = 1000;
    parameter SI.ThermalConductance G = 10 "conductance to the ambient";
    SI.Power Q_flow "heat given to the body";
    SI.Temperature T(start = T_start, fixed = true);
  equation
    C*der(T) = Q_flow - G*(T - ambient.T);
  end Body;

  model Enclosure "A box with its own air, which the bodies inside see as their ambient"
    inner outer Ambient ambient(T_mean = T_inside)
      "inner: the box's air, for the bodies inside; outer: here, the system's ambient";
    parameter SI.Temperature T_inside = 300 "temperature of the air inside";
    Body inside(C = 100, G = 2) "a body in the box";
    SI.Temperature dT "how much warmer the air inside is than the system's ambient";
  equation
    inside.Q_flow = 0;
    dT = T_inside - ambient.T;
  end Enclosure;
end Thermal;
