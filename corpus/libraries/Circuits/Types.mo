within Circuits;
package Types "Enumerations"
  type SwitchPosition = enumeration(Open "no current", Closed "no voltage") "position of an ideal switch";
  type InitialSwitch = enumeration(Open, Closed, FromSignal) "how a switch starts";
end Types;
