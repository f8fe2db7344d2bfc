within;
package Circuits "Small electrical library in the style of a standard library (for modeaudit's corpus)"
  import SI = Circuits.Units;

  constant Real eps = 1e-15 "a small number";
end Circuits;
