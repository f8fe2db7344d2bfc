// Near miss of parse-syntax-error: every construct of the truncated and
// mismatched cases, written correctly: matching `end` names, `end when` and
// `end if` in their places, strings holding `;`, `end if;` and escaped quotes,
// a block comment holding `end when;`, and a file that ends right after
// `end SyntaxNearMiss;` with no newline.
// status: good
package Lib "a package \"with\" quotes; and end if;"
  model Decay
    parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k*x;
  end Decay;
end Lib;

model SyntaxNearMiss
  /* not code: end when; end if; end SyntaxNearMiss; */
  Lib.Decay d(k = 2) "a decay; end Decay;";
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
  Real u;
  Real w[3];
equation
  der(h) = v;
  der(v) = -9.81;
  if h > 0.5 then
    u = 1;
  elseif h > 0.2 then
    u = 2;
  else
    u = 0;
  end if;
  for i in 1:3 loop
    w[i] = i*u;
  end for;
  when h <= 0 then
    reinit(v, -0.8*pre(v));
  end when;
  annotation(Documentation(info = "<html>end when;</html>"), experiment(StopTime = 1));
end SyntaxNearMiss;