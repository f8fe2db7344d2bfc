within Circuits;
package Ideal "Switching elements"
  model IdealDiode "Ideal diode with a small leakage and resistance"
    extends Circuits.Interfaces.OnePort;
    extends Circuits.Interfaces.ConditionalHeatPort;
    parameter SI.Resistance Ron = 1e-5 "forward resistance";
    parameter Real Goff(unit = "S") = 1e-5 "backward conductance";
    Boolean off(start = true) "true: blocking";
  protected
    Real s(start = 0, final unit = "1") "curve parameter";
  equation
    off = s < 0;
    v = s*(if off then 1 else Ron);
    i = s*(if off then Goff else 1);
    LossPower = v*i;
  end IdealDiode;

  model IdealSwitch "Switch whose position is set by an enumeration"
    extends Circuits.Interfaces.OnePort;
    parameter Circuits.Types.SwitchPosition position = Circuits.Types.SwitchPosition.Closed;
    parameter Real Ron(final min = 0) = 1e-5;
    parameter Real Goff(final min = 0) = 1e-5;
  equation
    if position == Circuits.Types.SwitchPosition.Closed then
      v = Ron*i;
    else
      i = Goff*v;
    end if;
  end IdealSwitch;
end Ideal;
