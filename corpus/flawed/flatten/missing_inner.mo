// A thermal body of the library used alone: its `outer Ambient ambient` has
// no inner element in any enclosing instance. Modelica 3.6 (5.4) lets a tool
// add one with a warning; modeaudit refuses, at the outer declaration, so
// that the audited model is the one the user runs in a complete system.
// status: flawed
// library: ../../libraries/Drives
// expect: flatten-undefined-name at 15:19 "no enclosing instance declares an inner 'ambient'"
model MissingInner
  Drives.Thermal.Body body(C = 10, G = 1);
equation
  body.Q_flow = 0;
end MissingInner;
