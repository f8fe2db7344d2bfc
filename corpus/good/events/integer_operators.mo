// ceil(), div(), mod(), integer() and rem() of a ramp x = time, each
// integrated into a state: each jumps where its argument (or quotient)
// reaches an integer, an event there (Modelica 3.6, 3.7.1 and 8.5). div()
// truncates towards zero, so div(x - 0.7, 0.4) is 0 on the whole of (-1, 1):
// no event where the quotient passes 0 (t = 0.7). integer() is floor();
// rem() is x - div * y.
// Expected numbers (closed form, t in [0, 2]):
//   ceil(2 x) jumps at t = 0.5, 1, 1.5; c(2) = 0.5 (1 + 2 + 3 + 4) = 5
//   div(x - 0.7, 0.4) jumps at t = 0.3, 1.1, 1.5, 1.9;
//     d(2) = -0.3 + 0.4 + 0.8 + 0.3 = 1.2
//   mod(x, 0.75) jumps at t = 0.75, 1.5; m(2) = 0.5625 + 0.125 = 0.6875
//   integer(x + 0.25) jumps at t = 0.75, 1.75; i(2) = 1 + 0.25 * 2 = 1.5
//   rem(x - 1, 0.4) jumps at t = 0.2, 0.6, 1.4, 1.8 (not at 1); r(2) = 0
//     (odd in x - 1)
// 12 event instants (those at 0.75 and 1.5 are shared): 0.2, 0.3, 0.5, 0.6,
// 0.75, 1, 1.1, 1.4, 1.5, 1.75, 1.8, 1.9.
// status: good
// stage: simulation
model IntegerOperators "ceil, div, mod, integer and rem: events at their jumps"
  Real x(start = 0, fixed = true);
  Real c(start = 0, fixed = true);
  Real d(start = 0, fixed = true);
  Real m(start = 0, fixed = true);
  Real i(start = 0, fixed = true);
  Real r(start = 0, fixed = true);
equation
  der(x) = 1;
  der(c) = ceil(2*x);
  der(d) = div(x - 0.7, 0.4);
  der(m) = mod(x, 0.75);
  der(i) = integer(x + 0.25);
  der(r) = rem(x - 1, 0.4);
  annotation(experiment(StopTime = 2));
end IntegerOperators;
