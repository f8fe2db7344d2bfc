within Circuits.Interfaces;
partial model OnePort "Two pins, one current"
  SI.Voltage v "voltage drop p.v - n.v";
  SI.Current i "current from p to n";
  PositivePin p;
  NegativePin n;
equation
  v = p.v - n.v;
  0 = p.i + n.i;
  i = p.i;
end OnePort;
