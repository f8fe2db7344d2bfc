// A sampled proportional controller holding its output between samples:
// sample(0, T) fires at t = 0, T, 2T, ..., and u, a discrete Real, keeps
// the value set at the last sample.
// status: good
// Expected numbers: with x(0) = 1 and h = exp(-T), each sample sets
// u_k = 1 - x_k and x_{k+1} = u_k + (x_k - u_k) h; at t = 1 (after the
// samples at 0, 0.1, ..., 0.9) x = 0.56054474084392, u = 0.42522338827072.
model SampleAndHold
  parameter Real T = 0.1 "sampling period";
  Real x(start = 1, fixed = true);
  discrete Real u(start = 0) "held controller output";
  Integer samples(start = 0) "number of samples taken";
equation
  der(x) = -x + u;
  when sample(0, T) then
    u = 1 - pre(x);
    samples = pre(samples) + 1;
  end when;
  annotation(experiment(StopTime = 1));
end SampleAndHold;
