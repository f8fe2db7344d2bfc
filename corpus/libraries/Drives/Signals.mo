within Drives;
package Signals "Signal sources"
  import Drives.Interfaces;

  block Constant "A constant signal"
    extends Interfaces.SignalSource;
    parameter Real k = 1 "the value";
  equation
    y = offset + k;
  end Constant;

  block Sine "A sine wave"
    extends Interfaces.SignalSource;
    parameter Real amplitude = 1;
    parameter SI.Frequency f = 1;
    parameter SI.Angle phase = 0;
    constant Real twoPi = 6.283185307179586;
  equation
    y = offset + amplitude*sin(twoPi*f*(time - startTime) + phase);
  end Sine;

  block Step "A step at startTime"
    extends Interfaces.SignalSource;
    parameter Real height = 1;
  equation
    y = offset + (if time < startTime then 0 else height);
  end Step;

  block Ramp "Has no output y: not a signal source"
    parameter Real slope = 1;
    Interfaces.RealOutput out;
  equation
    out = slope*time;
  end Ramp;
end Signals;
