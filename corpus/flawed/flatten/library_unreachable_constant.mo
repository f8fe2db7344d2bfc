// A package constant written as `Constants.pi` without importing
// Circuits.Constants: declared, but not visible as written. The finding
// names the full name and the import that would make it visible.
// status: flawed
// library: ../../libraries/Circuits
// expect: flatten-undefined-name at 10:16 "'Constants.pi' is not declared"
model UnreachableConstant
  Real phi(start = 0, fixed = true);
equation
  der(phi) = 2*Constants.pi;
end UnreachableConstant;
