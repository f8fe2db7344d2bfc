// Near miss of modes-unsupported-trigger: `when edge(past)` on a Boolean
// defined by one relation has the same single guard as `when past`
// (edge is in the supported subset, input-language.md).
// status: good
model EdgeTrigger
  Real x(start = 0, fixed = true);
  Real u;
  Boolean past;
  Boolean latched(start = false, fixed = true);
equation
  der(x) = 1 - u;
  past = x > 1;
  when edge(past) then
    latched = true;
  end when;
  if latched then
    u = 2;
  else
    u = 0;
  end if;
end EdgeTrigger;
