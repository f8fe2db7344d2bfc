within Drives;
package Interfaces "Connectors and partial classes"
  connector RealInput = input Real "a real input signal";
  connector RealOutput = output Real "a real output signal";
  connector BooleanInput = input Boolean "a Boolean input signal";
  connector BooleanOutput = output Boolean "a Boolean output signal";

  connector Pin "Electrical pin"
    SI.Voltage v;
    flow SI.Current i;
  end Pin;

  connector Flange "Rotational flange"
    SI.Angle phi;
    flow SI.Torque tau;
  end Flange;

  partial block SignalSource "A signal with an offset that starts at a given time"
    parameter Real offset = 0 "added to the signal";
    parameter SI.Time startTime = 0 "the signal is the offset before this time";
    RealOutput y "the signal";
  end SignalSource;

  partial model OnePort "Two pins, one current"
    SI.Voltage v;
    SI.Current i;
    Pin p;
    Pin n;
  equation
    v = p.v - n.v;
    0 = p.i + n.i;
    i = p.i;
  end OnePort;

  partial model VoltageSource "A voltage source whose waveform is a replaceable signal block"
    extends OnePort;
    parameter SI.Voltage offset = 0 "voltage offset";
    parameter SI.Time startTime = 0 "time offset";
    replaceable Drives.Interfaces.SignalSource signalSource(final offset = offset, final startTime = startTime)
      "the waveform";
  equation
    v = signalSource.y;
  end VoltageSource;

  partial model ConstrainedSource "A source whose signal block is constrained by a clause"
    extends OnePort;
    parameter Real gain = 1;
    replaceable Drives.Signals.Constant signal constrainedby Drives.Interfaces.SignalSource(final offset = 0)
      "any signal source; the constant by default";
  equation
    v = gain*signal.y;
  end ConstrainedSource;
end Interfaces;
