// A comparator switch: a sine source v = V*sin(2*pi*f*time) feeds a load
// resistor R through an ideal switch that a comparator closes while v is
// above the threshold Von and opens again below it. There is no energy
// store: both modes are purely algebraic (no states), so the simulation
// does not integrate; it solves v, i and p at the output points and
// searches the comparator's guards as functions of time
// (analyzer/simulation/algebraic_segment.cpp). The load current stays
// within its rating (an assert along both modes).
// Expected numbers (closed form, V = 1, f = 1, Von = 0.5, R = 10): the
// switch closes at t = 1/12 + k and opens at t = 5/12 + k: events at
// t = 0.0833333333333, 0.416666666667, 1.08333333333 (3 events); at the
// stop time 1.2, v = sin(0.4*pi) = 0.951056516295 and i = v/R =
// 0.0951056516295; the rating's smallest margin is 0.12 - 0.1 = 0.02 (at
// the peak, t = 1/4). tests/unit/simulation/algebraic_mode_test.cpp checks
// them to 1e-9.
// status: good
// stage: simulation
model ThresholdSwitch "a comparator-controlled switch in a resistive circuit"
  parameter Real V = 1 "source amplitude (V)";
  parameter Real f = 1 "source frequency (Hz)";
  parameter Real R = 10 "load resistance (Ohm)";
  parameter Real Von = 0.5 "comparator threshold (V)";
  parameter Real Imax = 0.12 "the load's current rating (A)";
  constant Real pi = 3.14159265358979323846;
  Real v "source voltage (V)";
  Real i "load current (A)";
  Real p "power delivered to the load (W)";
  Boolean open(start = true) "the switch is open";
equation
  v = V*sin(2*pi*f*time);
  open = v < Von;
  i = if open then 0 else v/R;
  p = v*i;
  assert(i <= Imax, "the load current stays within its rating");
  annotation(experiment(StopTime = 1.2));
end ThresholdSwitch;
