within Circuits.Basic;
model Capacitor "Ideal capacitor"
  extends OnePort(v(start = 0, fixed = true, stateSelect = StateSelect.prefer));
  parameter SI.Capacitance C = 1;
equation
  i = C*der(v);
end Capacitor;
