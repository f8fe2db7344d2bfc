// A signal bus (Modelica 3.6, 9.1.3), our own model in the idiom of the
// MSL's control buses: a sender puts its speed on its bus as an element the
// bus does not declare and its torque on a declared one; the drive's bus
// joins the sender's and the controller's, so the controller reads both
// through elements of its own bus. The declared `temperature` is connected
// nowhere and read nowhere: only potentially present, no unknown.
// Expected numbers: the controller integrates speed + torque = t + 2 t, so
// x(t) = 3 t^2/2; x(1) = 1.5.
// status: good
// stage: simulation
model ExpandableBus "A drive whose sender and controller talk over a bus"
  expandable connector Bus "elements added by the connections"
    Real torque;
    Real temperature;
  end Bus;
  connector RealOutput = output Real;
  connector RealInput = input Real;
  model Sender
    Bus bus;
    RealOutput speed, torque;
  equation
    speed = time;
    torque = 2*time;
    connect(speed, bus.speed);
    connect(torque, bus.torque);
  end Sender;
  model Controller
    Bus bus;
    RealInput w, tau;
    Real x(start = 0, fixed = true);
  equation
    connect(bus.speed, w);
    connect(bus.torque, tau);
    der(x) = w + tau;
  end Controller;
  Bus bus;
  Sender sender;
  Controller controller;
equation
  connect(sender.bus, bus);
  connect(bus, controller.bus);
  when time >= 1 then
    assert(abs(controller.x - 1.5) < 1e-6, "x(1) = 3/2");
  end when;
  annotation(experiment(StopTime = 1.5));
end ExpandableBus;
