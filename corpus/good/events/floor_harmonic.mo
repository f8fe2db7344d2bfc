// floor() of a state: der(x) = 1 + floor(x) from x(0) = 0. On [k, k + 1)
// the rate is k + 1, so x reaches the integer n at the harmonic number
// H_n = 1 + 1/2 + ... + 1/n: floor() jumps there, an event each time
// (Modelica 3.6, 3.7.1 and 8.5: between events floor keeps the integer of
// the last event, so the right-hand side is constant within a segment).
// Expected numbers (closed form): events at t = H_1 .. H_6 = 1, 1.5,
// 1.8333333333333, 2.0833333333333, 2.2833333333333, 2.45 (6 events);
// x(2.5) = 6 + 7 (2.5 - 2.45) = 6.35.
// status: good
// stage: simulation
model FloorHarmonic "floor() of a state: events at the harmonic numbers"
  Real x(start = 0, fixed = true);
equation
  der(x) = 1 + floor(x);
  annotation(experiment(StopTime = 2.5));
end FloorHarmonic;
