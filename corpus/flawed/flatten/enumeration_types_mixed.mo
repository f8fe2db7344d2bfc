// Two enumerations with literals of the same names do not mix: a literal of
// one bound to a parameter of the other (Modelica 3.6, 4.8.5).
// status: flawed
// expect: flatten-type-mismatch at 8:22 "'m' is of the enumeration type 'Mode' but is bound to a value of the enumeration 'Gear'"
model EnumerationTypesMixed
  type Mode = enumeration(off, on);
  type Gear = enumeration(off, low, high);
  parameter Mode m = Gear.off;
  Real x(start = 1, fixed = true);
equation
  der(x) = if m == Mode.on then -x else 0;
end EnumerationTypesMixed;
