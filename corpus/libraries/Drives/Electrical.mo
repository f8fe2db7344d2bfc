within Drives;
package Electrical "Electrical components"
  import Drives.Interfaces;

  model Resistor
    extends Interfaces.OnePort;
    parameter SI.Resistance R = 1;
  equation
    v = R*i;
  end Resistor;

  model Capacitor
    extends Interfaces.OnePort;
    parameter SI.Capacitance C = 1;
  equation
    i = C*der(v);
  end Capacitor;

  model Ground
    Interfaces.Pin p;
  equation
    p.v = 0;
  end Ground;

  model IdealDiode "Ideal diode with a small leakage and resistance"
    extends Interfaces.OnePort;
    parameter SI.Resistance Ron = 1e-5;
    parameter Real Goff = 1e-5;
    Boolean off(start = true);
  protected
    Real s(start = 0);
  equation
    off = s < 0;
    v = s*(if off then 1 else Ron);
    i = s*(if off then Goff else 1);
  end IdealDiode;

  model SineVoltage "Sine voltage: the source's signal block redeclared in the extends modifier"
    parameter SI.Voltage V = 1 "amplitude";
    parameter SI.Frequency f = 1 "frequency";
    extends Interfaces.VoltageSource(redeclare Drives.Signals.Sine signalSource(final amplitude = V, final f = f));
  end SineVoltage;

  model StepVoltage "Step voltage: the signal block redeclared by an element"
    extends Interfaces.VoltageSource;
    parameter SI.Voltage V = 1 "height";
    redeclare Drives.Signals.Step signalSource(final height = V);
  end StepVoltage;

  model SignalVoltage "The constrained source, with its default signal block"
    extends Interfaces.ConstrainedSource;
  end SignalVoltage;

  model DCMotor "DC motor with permanent magnet excitation, parameterised by a data set"
    extends Interfaces.OnePort;
    parameter Drives.Data.MotorData data "the machine's data set";
    Interfaces.Flange flange "the shaft";
    SI.AngularVelocity w "speed";
    SI.Torque tau "air gap torque";
    Drives.Data.PowerBalance power "electrical, mechanical and lost power";
  equation
    w = der(flange.phi);
    data.L*der(i) = v - data.R*i - data.kPhi*w;
    tau = data.kPhi*i;
    data.J*der(w) = tau - data.friction.d*w + flange.tau;
    power = Drives.Data.PowerBalance(electrical = v*i, mechanical = tau*w, loss = data.R*i^2);
  end DCMotor;
end Electrical;
