// A type from the Modelica Standard Library, which is not bundled.
// status: flawed
// expect: flatten-undefined-name at 6:3 "class 'Modelica.Units.SI.Voltage' is not defined"
model MslReference
  parameter Real R = 10;
  Modelica.Units.SI.Voltage v;
  Real i;
equation
  v = sin(time);
  v = R*i;
end MslReference;
