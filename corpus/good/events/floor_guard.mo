// A when-condition that reads floor(): the counter moves on when the level
// passes a whole number above 2. floor(h) - 2 is at most 0 until h reaches
// 3, where it jumps to 1: the transition fires at floor's event (h = 3 at
// t = 1.5 for h = 2 t), not at the touch of 0 at h = 2. Before the guards
// froze their jumping operators this event was missed with a warning.
// status: good
// stage: simulation
model FloorGuard
  Real h(start = 0, fixed = true);
  Integer passed(start = 0, fixed = true);
  discrete Real at(start = -1, fixed = true);
equation
  der(h) = 2;
  when floor(h) > 2 then
    passed = pre(passed) + 1;
    at = time;
  end when;
  when terminal() then
    assert(passed == 1 and abs(at - 1.5) < 1e-9, "the guard fires once, at t = 1.5");
  end when;
  annotation(experiment(StopTime = 2));
end FloorGuard;
