within;
package Drives "Small library of signal blocks, sources, controllers and friction elements in the style of a standard library (for modeaudit's corpus)"
  import SI = Drives.Units;
end Drives;
