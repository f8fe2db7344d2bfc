within Drives;
package Data "Parameter records: the data sets of machines, read by the models that use them"
  record FrictionData "Bearing friction, linear in the speed"
    parameter SI.Torque tauRef = 0 "friction torque at the reference speed";
    parameter SI.AngularVelocity wRef = 100 "reference speed";
    final parameter Real d = if wRef > 0 then tauRef/wRef else 0 "friction coefficient, N.m.s/rad";
  end FrictionData;

  partial record NominalPoint "The rating plate every machine data set starts from"
    parameter SI.Voltage VNominal = 100 "nominal armature voltage";
    parameter SI.Current INominal = 10 "nominal armature current";
    parameter SI.AngularVelocity wNominal = 150 "nominal speed";
  end NominalPoint;

  record MotorData "Data set of a DC motor with permanent magnet excitation"
    extends NominalPoint;
    parameter SI.Resistance R = 0.5 "armature resistance";
    parameter SI.Inductance L = 0.01 "armature inductance";
    parameter SI.Inertia J = 0.1 "rotor inertia";
    parameter FrictionData friction(tauRef = 1) "bearing friction";
    final parameter Real kPhi = (VNominal - R*INominal)/wNominal "flux linkage, from the nominal point, V.s/rad";
  end MotorData;

  record PowerBalance "Powers of a machine at one instant"
    SI.Power electrical "taken from the supply";
    SI.Power mechanical "given to the shaft";
    SI.Power loss "turned into heat";
  end PowerBalance;
end Data;
