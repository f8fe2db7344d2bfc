within Drives;
package Examples "Models built from the library"
  import Drives.Electrical;
  import Drives.Mechanical;

  model SineRectifier "Sine source (a redeclared signal block), ideal diode and RC load"
    Electrical.SineVoltage source(V = 10, f = 50);
    Electrical.IdealDiode diode;
    Electrical.Resistor load(R = 100);
    Electrical.Capacitor capacitor(C = 1e-4);
    Electrical.Ground ground;
  equation
    connect(source.p, diode.p);
    connect(diode.n, load.p);
    connect(diode.n, capacitor.p);
    connect(load.n, source.n);
    connect(capacitor.n, source.n);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 0.04));
  end SineRectifier;

  model StepCharging "A step source (signal block redeclared by an element) charges a capacitor"
    Electrical.StepVoltage source(V = 5, startTime = 0.1);
    Electrical.Resistor r(R = 10);
    Electrical.Capacitor c(C = 0.01);
    Electrical.Ground ground;
  equation
    connect(source.p, r.p);
    connect(r.n, c.p);
    connect(c.n, source.n);
    connect(source.n, ground.p);
    annotation(experiment(StopTime = 0.5));
  end StepCharging;

  model Thermostat "A heater switched by an on/off controller whose pre(y) starts from an initial equation"
    parameter SI.HeatCapacity C = 100;
    parameter Real G = 2 "loss to the ambient, W/K";
    parameter SI.Power P = 200 "heater power";
    parameter SI.Temperature T_amb = 280;
    Drives.Logical.OnOffController controller(bandwidth = 2, pre_y_start = true);
    SI.Temperature T(start = 290, fixed = true);
  equation
    controller.reference = 300;
    controller.u = T;
    C*der(T) = (if controller.y then P else 0) - G*(T - T_amb);
    annotation(experiment(StopTime = 100));
  end Thermostat;

  model SpinDown "An inertia slowed by a damper whose table has a size ':' and is built with cat"
    Mechanical.Inertia inertia(J = 2, w(start = 10, fixed = true), phi(start = 0, fixed = true));
    Mechanical.TableDamper damper(d_table = cat(1, [0, 0.4], [5, 0.6]));
  equation
    connect(inertia.flange, damper.flange);
    annotation(experiment(StopTime = 2));
  end SpinDown;

  model TableSpinDown "An inertia braked by a torque read from an interpolation table"
    Mechanical.Inertia inertia(J = 1, w(start = 2, fixed = true), phi(start = 0, fixed = true));
    Mechanical.TableBrake brake;
  equation
    connect(inertia.flange, brake.flange);
    annotation(experiment(StopTime = 2));
  end TableSpinDown;

  model MotorStart "A DC motor given its data set by a record constructor, started on a constant voltage"
    parameter Drives.Data.MotorData motorData = Drives.Data.MotorData(
      R = 0.5, L = 0.02, J = 0.05, friction = Drives.Data.FrictionData(tauRef = 2, wRef = 150))
      "the machine's rating and data";
    Electrical.DCMotor motor(data = motorData);
    Electrical.SignalVoltage source(gain = motorData.VNominal);
    Electrical.Ground ground;
    Mechanical.TableDamper load(d_table = [0, 0.01; 200, 0.02]);
    SI.Power loss = motor.power.loss "read through the record component";
  equation
    connect(source.p, motor.p);
    connect(motor.n, source.n);
    connect(source.n, ground.p);
    connect(motor.flange, load.flange);
    annotation(experiment(StopTime = 1));
  end MotorStart;

  model RoomHeating "Bodies in one ambient (inner/outer), one of them heated by an on/off controller"
    inner Drives.Thermal.Ambient ambient(T_mean = 280, T_swing = 3, period = 200);
    inner parameter SI.Temperature T_start = 285 "the start of every body";
    Drives.Thermal.Body room(C = 500, G = 5);
    Drives.Thermal.Body wall(C = 2000, G = 20);
    Drives.Thermal.Enclosure box(T_inside = 305);
    Drives.Logical.OnOffController controller(bandwidth = 2, pre_y_start = true);
  equation
    controller.reference = 295;
    controller.u = room.T;
    room.Q_flow = if controller.y then 400 else 0;
    wall.Q_flow = 0;
    annotation(experiment(StopTime = 200));
  end RoomHeating;
end Examples;
