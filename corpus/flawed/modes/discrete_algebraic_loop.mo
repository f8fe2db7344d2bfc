// Two Booleans defined through each other with no pre() between them:
// a = not b and x > 1, b = a or x > 2. No order of evaluation exists (an
// algebraic loop of discrete variables).
// status: flawed
// stage: modes
// expect: modes-logic-unsettled at 13:3 "define a -> b -> a through each other"
model DiscreteAlgebraicLoop "Booleans defined through each other"
  Real x(start = 0, fixed = true);
  Boolean a;
  Boolean b;
equation
  der(x) = if a then 1 else 2;
  a = not b and x > 1;
  b = a or x > 2;
end DiscreteAlgebraicLoop;
