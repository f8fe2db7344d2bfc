// Twelve levels of parentheses: over --max-nesting 5, within the default 200.
model NestedParens
  Real x(start = 1, fixed = true);
equation
  der(x) = -((((((((((((x))))))))))));
end NestedParens;
