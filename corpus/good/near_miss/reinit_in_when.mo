// Near miss of flatten-reinit-outside-when: reinit inside an equation
// when-clause and inside its elsewhen branch.
// status: good
model ReinitInWhen
  parameter Real c = 0.9;
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
equation
  der(h) = v;
  der(v) = -9.81;
  when h <= 0 then
    reinit(v, -c*pre(v));
  elsewhen h >= 2 then
    reinit(v, 0);
  end when;
end ReinitInWhen;
