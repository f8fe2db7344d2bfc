within Circuits.Basic;
model Ground "Zero potential"
  Circuits.Interfaces.Pin p;
equation
  p.v = 0;
end Ground;
