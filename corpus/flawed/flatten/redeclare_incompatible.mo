// A replaceable signal block redeclared with a block that lacks the
// constraining class's output y (and its parameters): not a subtype, so
// the redeclaration is refused where it is written.
// status: flawed
// library: ../../libraries/Drives
// expect: flatten-type-mismatch at 9:15 "lacks 'offset', 'startTime', 'y'"
model IncompatibleSignal
  Drives.Electrical.SignalVoltage source(
    gain = 2, redeclare Drives.Signals.Ramp signal(slope = 1));
  Drives.Electrical.Resistor r(R = 10);
  Drives.Electrical.Ground ground;
equation
  connect(source.p, r.p);
  connect(r.n, source.n);
  connect(source.n, ground.p);
end IncompatibleSignal;
