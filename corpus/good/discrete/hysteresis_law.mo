// The hysteresis law in the form of the Modelica Standard Library's logical
// blocks, written here as two blocks connected by a Boolean connection: the
// hysteresis output y = not pre(y) and u > uHigh or pre(y) and u >= uLow
// drives a switch between two rates of a first-order state. The guards of
// each mode follow from the law with pre(y) fixed: leaving y = false is
// u > uHigh, leaving y = true is u < uLow (through u >= uLow becoming false).
// Expected numbers (piecewise linear): x rises at rate 1 from 0 to 1.5 and
// falls at rate 1 to 0.5: events at t = 1.5, 2.5, 3.5, 4.5. This law once
// made `check` run for minutes without output.
// status: good
// model: HysteresisLaw.Loop
// stage: simulation
package HysteresisLaw
  connector BooleanOutput = output Boolean;
  connector BooleanInput = input Boolean;
  block Hysteresis "a relay with hysteresis"
    parameter Real uLow = 0.5;
    parameter Real uHigh = 1.5;
    input Real u;
    BooleanOutput y(start = false);
  equation
    y = not pre(y) and u > uHigh or pre(y) and u >= uLow;
  end Hysteresis;
  block Switch "a rate selected by a Boolean input"
    BooleanInput on;
    output Real rate;
  equation
    rate = if on then -1 else 1;
  end Switch;
  model Loop
    Hysteresis h;
    Switch s;
    Real x(start = 0, fixed = true);
  equation
    h.u = x;
    connect(h.y, s.on);
    der(x) = s.rate;
    annotation(experiment(StopTime = 5));
  end Loop;
end HysteresisLaw;
