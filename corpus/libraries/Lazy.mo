within;
package Lazy "A one-file library whose unused classes hold constructs outside modeaudit's subset"
  model Decay "Clean: the only class a good model uses"
    parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k*x;
  end Decay;

  function halve "A while loop: outside the subset, never called by Decay"
    input Real u;
    output Real y;
  algorithm
    y := u;
    while y > 1 loop
      y := y/2;
    end while;
  end halve;

  model Configurable "A class redeclaration: outside the subset"
    Holder h(redeclare model Part = Decay);
  end Configurable;

  function external_gain "External code: outside the subset"
    input Real u;
    output Real y;
  external "C" y = gain_c(u);
  end external_gain;

  model UsesExternal "Uses the external function: refused where the call's function is defined"
    Real x(start = 1, fixed = true);
  equation
    der(x) = -external_gain(x);
  end UsesExternal;
end Lazy;
