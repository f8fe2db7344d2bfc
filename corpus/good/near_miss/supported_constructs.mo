// Near miss of flatten-unsupported-construct: what the refused constructs are
// rewritten as within the subset: a small user function with an algorithm
// body (inlined) instead of an external one, an Integer instead of an
// enumeration, a for-equation and a for-loop in the function, a when-clause
// with one relation instead of a while loop.
// status: good
package Valves
  function friction "Coulomb plus viscous friction, written in Modelica"
    input Real v;
    input Real c;
    output Real f;
  protected
    Real s;
  algorithm
    s := 0;
    for i in 1:2 loop
      s := s + c/2;
    end for;
    f := s*v;
  end friction;
end Valves;

model SupportedConstructs
  import Valves.friction;
  constant Integer Open = 1, Closed = 2 "instead of an enumeration";
  parameter Real c = 0.5;
  Real x[2](each start = 1, each fixed = true);
  Real v(start = 1, fixed = true);
  discrete Integer state(start = Open, fixed = true);
equation
  for i in 1:2 loop
    der(x[i]) = -i*x[i];
  end for;
  der(v) = -friction(v, c);
algorithm
  when v < 0.5 then
    state := Closed;
  end when;
end SupportedConstructs;
