within Circuits.Basic;
model Inductor "Ideal inductor"
  extends OnePort(i(start = 0, fixed = true));
  parameter SI.Inductance L = 1;
equation
  L*der(i) = v;
end Inductor;
