// A tank fed by a reversible pump, q = Q*cos(w*time), spills over a weir
// at the level hmax. Below the crest the level integrates the pump flow
// (one state, h); at the crest the level is held there and everything the
// pump delivers spills over (the mass balance reduced by hand: der(h) = 0,
// spill = q), a mode without states that the simulation follows without
// integrating (analyzer/simulation/algebraic_segment.cpp). The weir stops
// spilling when the pump reverses (spill < 0), and the level falls again.
// Both mode changes are continuous: the level reaches the crest, and leaves
// it from there.
// Expected numbers (closed form, A = 4, Q = 1, w = 1, h(0) = 0.875):
// h = 0.875 + sin(t)/4 reaches the crest at t = pi/6 = 0.523598775598;
// the weir spills until the pump reverses at t = pi/2 = 1.57079632679
// (2 events); then h = 1 + (sin(t) - 1)/4, so h(6) = 0.680146125523 and
// q(6) = cos(6) = 0.960170286650. tests/unit/simulation/
// algebraic_mode_test.cpp checks them to 1e-9.
// status: good
// stage: simulation
model TankOverflow "a tank fed by a reversible pump spills over a weir"
  parameter Real A = 4 "cross-section (m2)";
  parameter Real hmax = 1 "weir crest (m)";
  parameter Real Q = 1 "pump amplitude (m3/s)";
  parameter Real w = 1 "pump angular frequency (rad/s)";
  Real q "pump flow into the tank (m3/s)";
  Real h(start = 0.875, fixed = true) "level (m)";
  Real spill "flow over the weir (m3/s)";
  Boolean full(start = false) "the level is at the crest";
equation
  q = Q*cos(w*time);
  if full then
    h = hmax;
    spill = q;
  else
    A*der(h) = q;
    spill = 0;
  end if;
  when h > hmax then
    full = true;
  end when;
  when spill < 0 then
    full = false;
  end when;
  annotation(experiment(StopTime = 6));
end TankOverflow;
