// A recursive function without a base case for its argument: the depth
// limit stops the evaluation with a finding.
// status: flawed
// expect: flatten-invalid-value at 10:10 "nested deeper than 200"
model FunctionRecursion
  function f
    input Integer n;
    output Integer r;
  algorithm
    r := f(n + 1);
  end f;
  parameter Integer p = f(1);
  Real x(start = 1, fixed = true);
equation
  der(x) = -p*x;
end FunctionRecursion;
