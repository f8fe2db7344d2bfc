// A bang-bang oscillator: der(v) = -sign(x). From x = 1, v = 0 the motion
// is a parabola in each half: x = 1 - t^2/2 reaches 0 at t = sqrt(2), then
// x crosses zero every 2 sqrt(2). sign() changes at each crossing: an event
// there (Modelica 3.6, 3.7.1), the states carry over. The energy
// v^2/2 + abs(x) is constant; abs(x) is an event-generating operator as
// well, on the same argument (the two share their crossing function).
// Expected numbers (closed form): events at t = (2k + 1) sqrt(2), k = 0..3:
// 1.41421356237, 4.24264068712, 7.07106781187, 9.89949493661 (4 events);
// e = v^2/2 + abs(x) = 1 throughout; with d = 10 - 7 sqrt(2) (x rises from
// its last zero), v(10) = sqrt(2) - d = 1.31370849898 and
// x(10) = sqrt(2) d - d^2/2 = 0.137084989855.
// status: good
// stage: simulation
model SignOscillator "der(v) = -sign(x): events where x changes sign"
  Real x(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
  Real e "energy";
equation
  der(x) = v;
  der(v) = -sign(x);
  e = v^2/2 + abs(x);
  annotation(experiment(StopTime = 10));
end SignOscillator;
