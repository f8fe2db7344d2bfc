within Circuits.Examples;
model SwitchedRL "An inductor fed through a switch whose position is a parameter"
  import Circuits.Types.SwitchPosition;
  parameter SwitchPosition position = SwitchPosition.Closed;
  Circuits.Sources.ConstantVoltage source(V = 2);
  Circuits.Ideal.IdealSwitch switch(position = position);
  Circuits.Basic.Inductor inductor(L = 0.1);
  Circuits.Basic.Resistor resistor(R = 1);
  Circuits.Basic.Ground ground;
  parameter Integer k = Integer(SwitchPosition.Closed) "2";
equation
  connect(source.p, switch.p);
  connect(switch.n, inductor.p);
  connect(inductor.n, resistor.p);
  connect(resistor.n, source.n);
  connect(source.n, ground.p);
end SwitchedRL;
