// A matrix constructor whose rows have different lengths.
// status: flawed
// expect: flatten-type-mismatch at 5:32 "does not fit together"
model RaggedTable
  parameter Real table[:, 2] = [0, 0.5; 1];
  Real x(start = 1, fixed = true);
equation
  der(x) = -table[1, 2]*x;
end RaggedTable;
