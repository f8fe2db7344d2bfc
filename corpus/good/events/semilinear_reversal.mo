// Heat carried by a flow that reverses, the fluid libraries' semiLinear
// idiom: H_flow = semiLinear(m_flow, h_a, h_b) = if m_flow >= 0 then
// m_flow*h_a else m_flow*h_b (Modelica 3.6, 3.7.2). The flow m_flow =
// sin(time) reverses at t = pi and 2 pi: events there (the if-expression's
// relation), none inside noEvent (Q_quiet).
// Expected numbers (closed form, h_a = 2, h_b = 0.5): Q, the integral of
// H_flow, is 2 (1 - cos t) up to pi (Q = 4), then 4 - 0.5 (1 + cos t) up
// to 2 pi (Q = 3), then 3 + 2 (1 - cos t): Q(7) = 5 - 2 cos 7 =
// 3.49219549131339; Q_quiet the same, with no event.
// status: good
// stage: simulation
model SemiLinearReversal "a reversing flow carries the enthalpy of the side it comes from"
  parameter Real h_a = 2 "specific enthalpy upstream of a positive flow";
  parameter Real h_b = 0.5 "specific enthalpy upstream of a negative flow";
  Real m_flow "mass flow, positive from a to b";
  Real H_flow "enthalpy flow";
  Real Q(start = 0, fixed = true) "enthalpy carried";
  Real Q_quiet(start = 0, fixed = true) "the same, written inside noEvent";
equation
  m_flow = sin(time);
  H_flow = semiLinear(m_flow, h_a, h_b);
  der(Q) = H_flow;
  der(Q_quiet) = noEvent(semiLinear(m_flow, h_a, h_b));
  annotation(experiment(StopTime = 7));
end SemiLinearReversal;
