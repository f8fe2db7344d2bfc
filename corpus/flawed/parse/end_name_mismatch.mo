// The `end` of a model names another class.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 9:5 "'end Tank' does not match"
model Reservoir
  Real level(start = 2);
equation
  der(level) = -0.1*level;
end Tank;
