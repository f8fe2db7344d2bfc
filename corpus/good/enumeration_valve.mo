// A valve whose state is an enumeration: literals, comparisons in an
// if-expression, a when-clause that changes the state, and Integer() of a
// literal. (Enumerations were refused before library support.)
// status: good
type ValveState = enumeration(open "flow passes", closed "no flow");

model EnumerationValve
  parameter Integer closedCode = Integer(ValveState.closed);
  ValveState s(start = ValveState.open, fixed = true);
  Real level(start = 1, fixed = true);
  Real q;
equation
  q = if s == ValveState.open then level else 0;
  der(level) = -q;
  when level < 0.5 then
    s = ValveState.closed;
  end when;
end EnumerationValve;
