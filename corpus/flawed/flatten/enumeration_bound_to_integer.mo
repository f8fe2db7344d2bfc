// An enumeration literal bound to an Integer: an enumeration value is not a
// number (Modelica 3.6, 4.8.5); Integer(Level.high) converts it.
// status: flawed
// expect: flatten-type-mismatch at 7:25 "'n' is an Integer but is bound to a value of the enumeration 'Level'"
model EnumerationBoundToInteger
  type Level = enumeration(low, high);
  parameter Integer n = Level.high;
  Real x(start = n, fixed = true);
equation
  der(x) = -x;
end EnumerationBoundToInteger;
