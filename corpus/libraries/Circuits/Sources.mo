within Circuits;
package Sources "Voltage sources, several classes in one file"
  import Circuits.Constants.pi;

  model ConstantVoltage "Constant voltage"
    extends Circuits.Interfaces.OnePort;
    parameter SI.Voltage V = 1;
  equation
    v = V;
  end ConstantVoltage;

  model SineVoltage "Sine voltage"
    extends Circuits.Interfaces.OnePort;
    parameter SI.Voltage V = 1 "amplitude";
    parameter SI.Frequency f = 50;
    parameter SI.Angle phase = 0;
  equation
    v = V*sin(2*pi*f*time + phase);
  end SineVoltage;

  model TableVoltage "Voltage from a table in a file: outside modeaudit's subset, never used by the examples"
    extends Circuits.Interfaces.OnePort;
    parameter String fileName = "table.txt";
  equation
    v = readTable(fileName, time);
  end TableVoltage;

  function readTable "External table reader (never called by the examples)"
    input String fileName;
    input Real t;
    output Real y;
  external "C" y = tableRead(fileName, t);
  end readTable;
end Sources;
