// Near miss of flatten-array-size: an array of size 0 (n - m = 0) and one of
// size 3 from an Integer parameter, a for-equation over an empty range, and
// subscripts inside the bounds (including `end`).
// status: good
model ArraySizesValid
  parameter Integer n = 3;
  parameter Integer m = 3;
  Real empty[n - m];
  Real x[n](each start = 1, each fixed = true);
equation
  for i in 1:n - m loop
    der(empty[i]) = -empty[i];
  end for;
  for i in 1:n - 1 loop
    der(x[i]) = -x[i + 1];
  end for;
  der(x[end]) = -x[1];
end ArraySizesValid;
