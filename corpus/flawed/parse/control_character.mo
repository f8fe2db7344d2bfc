// A control character (0x01) between two tokens of an equation.
// status: flawed
// stage: parse
// expect: parse-invalid-encoding at 8:12 "control character 0x01"
model ControlCharacter
  Real x(start = 1);
equation
  der(x) = -x;
end ControlCharacter;
