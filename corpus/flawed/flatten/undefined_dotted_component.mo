// A dotted name whose middle part is not a component: r1 has pins p and n, not q.
// status: flawed
// expect: flatten-undefined-name at 21:6 "no component 'q'"
connector Pin
  Real v;
  flow Real i;
end Pin;

model Resistor
  Pin p, n;
  parameter Real R = 1;
equation
  p.v - n.v = R*p.i;
  p.i + n.i = 0;
end Resistor;

model UndefinedDottedComponent
  Resistor r1;
equation
  r1.p.v = 1;
  r1.q.v = 0;
end UndefinedDottedComponent;
