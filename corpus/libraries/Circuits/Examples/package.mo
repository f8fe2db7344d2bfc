within Circuits;
package Examples "Example circuits"
  extends Circuits.Icons.ExamplesPackage;
end Examples;
