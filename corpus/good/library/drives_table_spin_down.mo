// An inertia braked by a torque read from an interpolation table held in an
// external object (the standard library's idiom for friction
// characteristics): the table becomes linear segments of the speed, with no
// event at the breakpoint w = 1. Closed form: w = 3*exp(-t) - 1 until
// w = 1 at t1 = ln 1.5, then w = exp(-2*(t - t1)); w(2) = 2.25*exp(-4).
// status: good
// library: ../../libraries/Drives
model TableSpinDownFromLibrary
  extends Drives.Examples.TableSpinDown;
  annotation(experiment(StopTime = 2));
end TableSpinDownFromLibrary;
