// A redeclaration of a component that is not declared replaceable
// (Modelica 3.6, 7.3.2): refused where the redeclaration is written.
// status: flawed
// library: ../../libraries/Drives
// expect: flatten-type-mismatch at 7:32 "'r.p' is not replaceable"
model RedeclaresFixedPin
  Drives.Electrical.Resistor r(redeclare Drives.Interfaces.Pin p);
  Drives.Electrical.Ground ground;
equation
  connect(r.p, ground.p);
  connect(r.n, ground.p);
end RedeclaresFixedPin;
