within Circuits;
package Basic "Basic components"
  import Circuits.Interfaces.*;
end Basic;
