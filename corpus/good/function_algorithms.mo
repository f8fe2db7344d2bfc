// User functions with algorithm bodies: a while loop on the model's
// variables (Newton's square root, evaluated numerically), a function with
// two outputs, one that extends another, a Modelica.Math-style external
// "builtin" function, and a numerically evaluated function in a constraint
// that index reduction differentiates through its declared derivative.
// status: good
model FunctionAlgorithms
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
    annotation(derivative = newtonSqrt_der);
  end newtonSqrt;
  function newtonSqrt_der
    input Real a;
    input Real da;
    output Real dy;
  algorithm
    dy := da/(2*sqrt(a));
  end newtonSqrt_der;
  function polar
    input Real x;
    input Real y;
    output Real r;
    output Real phi;
  algorithm
    r := sqrt(x^2 + y^2);
    phi := atan2(y, x);
  end polar;
  function base
    input Real u;
    output Real v;
  end base;
  function twice
    extends base;
  algorithm
    v := 2*u;
  end twice;
  function mysin
    input Real u;
    output Real y;
  external "builtin" y = sin(u);
  end mysin;
  Real x(start = 1, fixed = true);
  Real z(start = 1, fixed = true);
  Real w;
  Real r, phi, s, q;
equation
  der(x) = -newtonSqrt(x);
  (r, phi) = polar(x, 1);
  s = twice(x) + mysin(x);
  newtonSqrt(z) = 1 + time;
  der(z) = w;
  q = r*phi;
end FunctionAlgorithms;
