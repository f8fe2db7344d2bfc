// An enumeration type for the mode of a valve.
// status: flawed
// expect: flatten-unsupported-construct at 4:19 "enumeration type is not supported"
type ValveState = enumeration(open, closed);

model Enumeration
  ValveState s(start = ValveState.open);
  Real q;
equation
  q = if s == ValveState.open then 1 else 0;
end Enumeration;
