within Drives;
package Logical "Blocks with Boolean outputs"
  block OnOffController "Switches on below the band around the reference and off above it"
    Interfaces.RealInput reference;
    Interfaces.RealInput u;
    Interfaces.BooleanOutput y;
    parameter Real bandwidth = 0.1 "width of the band around the reference";
    parameter Boolean pre_y_start = false "pre(y) at the start";
  initial equation
    pre(y) = pre_y_start;
  equation
    y = pre(y) and (u < reference + bandwidth/2) or (u < reference - bandwidth/2);
  end OnOffController;
end Logical;
