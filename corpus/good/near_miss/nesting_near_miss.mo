// Near miss of parse-nesting-too-deep: 150 nested parentheses (generated),
// below the parser's bound of 200 levels.
// status: good
model NestedParentheses
  Real x(start = 1, fixed = true);
equation
  der(x) =
    -((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((x))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))));
end NestedParentheses;
