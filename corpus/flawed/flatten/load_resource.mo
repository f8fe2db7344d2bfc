// Untrusted models may read no file but themselves: a resource-loading
// function (here through the standard library's path) is refused before
// anything could be read, and so is a file read under another name.
// status: flawed
// expect: flatten-unsupported-construct at 10:25 "models are untrusted and may read no file"
model LoadResource
  parameter Real k = 2;
  Real x(start = 1, fixed = true);
equation
  der(x) = -k * x + 0 * Modelica.Utilities.Files.loadResource("modelica://Data/table.txt");
end LoadResource;
