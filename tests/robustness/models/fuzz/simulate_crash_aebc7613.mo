// A constraint through a function evaluated numerically (a while loop on
// the model's variables) and without a derivative annotation: index
// reduction differentiates it, so its derivative is approximated by central
// differences (a warning; functions/function_algorithms.mo declares it).
// status: good
// expect: structure-function-differentiated at 7:1 "differentiates the function 'newtonSqrt'"
model FunctionDifferentiatedNumerically
  function newtonSqrt
    input Real a;
    output Real y;
  protected
    Real err;
  algorithm
    y := max(a, 1);
    err := 1;
    while err > 1e-12 loop
      y := 0.5*(y + a/y);
      err := abs(y*y - a);
    end while;
  end newtonSqrt;
  Real z(start = 1, fixed = true);
  Real w;
equation
  newtonSqrt(z) = 0 + time;
  der(z) = w;
end FunctionDifferentiatedNumerically;
