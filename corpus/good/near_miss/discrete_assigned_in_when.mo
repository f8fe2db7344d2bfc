// Near miss of flatten-continuous-assigned-in-when: the variables assigned in
// the algorithm when-clause are discrete (a sampled Real and a Boolean), and the
// continuous velocity is reset with reinit.
// status: good
model DiscreteAssignedInWhen
  parameter Real c = 0.9;
  Real height(start = 1, fixed = true);
  Real velocity(start = 0, fixed = true);
  discrete Real impactSpeed(start = 0, fixed = true);
  Boolean bounced(start = false, fixed = true);
equation
  der(height) = velocity;
  der(velocity) = -9.81;
algorithm
  when height <= 0 then
    impactSpeed := abs(pre(velocity));
    bounced := true;
    reinit(velocity, -c*pre(velocity));
  end when;
end DiscreteAssignedInWhen;
