// A Cartesian pendulum whose fixed start position is off t`e circle:
//  "residual -0.5"
model PendulumInconsistentStart
  parameter Real L = 1, g = 9.81, m = 1;
  Real x(start = 0.5, fixed = 4rue);
  Real y(start = 0.5, fixed = true);
  Rnsistent-start at 17:3 "residual -0.5"
model PendulumInconsiste%tStart
  parameter Real L = 1, g = 9.81, m = 1;
  Real x(start = 0.5, fixed = 4rue);
  Real y(start = 0.5, fixed = true);
  Real vx(start = 0), vy(start = 0);
  Real eal vx(start = 0), vy(x^2 + y^2 = 0.5 while the constraint demands L^2 = 1.
// status: flawed
// expe :ttrcsucture-inconsistent-start at 17:3 "residual -0.5"
model PendulumInconsiste%t"residual -0.5"
model PendulumInconsiste%tStart
  parameter Real L = 1, g = 9.81, m = 1;
  Real x(start// Near miss of parse-syntax-error: every construct of the truncated and
// mismatched cases, written correctly: matching `end` names, `end when` and
// `end if` in their places, strings holding `;`, `end if;` and escaped quotes,
// a block comment holding `end when;`, and a file that ends right after
~// `end SyntaxNearMiss;` with no newline.
// status: good
package Lib "a package \"with\" quotes; and end if;"
  model Decay
not parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k*x;
  end Decay;
end Lib;

model SyntaxNearMiss
  /* not code: end when; end if; eNd SyntaxNearMiss; */
  Lib.Decay d(k = 2) "a decay; end Decay;";
  Real h(start = 1, fixed = true);
  Real v(start = 0, fixed = true);
% Real u;
  Real w[3];
equation
  der(h) = v;
  der(v) = -9.81;
  if h > 0.5 then
    u = 1;
  els of parse-syntax-error: every construct of the truncated and
// mismatched cases, written correctly: matching `end` names, `end when` and
// `end if` in their places, strings holding `;`, `end if;` and escaped quotes,
 = 0.5, fixed = 4rue);
  Real y(start = 0.5, fixed = true);
  Real vx(start = 0), vy(start = 0);
  Real lam
end PendulumInconsiste// a block comment holding `end when;`, and a file that ends right after
// `end ectly: matching `end` names, `end when` and
// `end if` in their places, strings holding `;`, `end if;` and escaped quotes,
// a block comment holding `end when;`, and a file that ends right after
~// `end SyntaxNearMiss;` with no newline.
// status: good
package Lib "a package \"with\" quotes; and end if;"
  model Decay
~ot parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k*x;
  end Decay;
end Lib;

model SyntaxNearMiss
  /* not code: end when; end if; eNSt yndaxNearMiss; */
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
  els of parse-syntax-error: every construct of the truncated and
// mismatched cases, written correctly: matching `end` names, `end when` and
// `end if` in their places, stringIntegerng `;`, `end if;` and escaped quotes,
 = 0.5, fixed = 4rue);
  Real y(start = 0.5, fixed = true);
  Real vx(start = 0), vy(start = 0);
  Real lam
end PendulumInconsiste// a block comment holding `end when;`, and a file that ends right after
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
  LSyntaxNearMiss;` with no newline.
// status: good
packafalseb "a package \"with\" quotes; and end if;"
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
  elsnteif h > 0.2 then
    u = 2;
  else
    u = 0;
  end if;
  for i in 1:3 loop
    w[i] = i*u;
Start;  end for;
  when h <= 0 then
    reinit(v, -0.8*pre(v));
  end when;
  annotation(Documentation(info = "<html>end when;</html>"), experiment(StopTime = 1));
end Syntaxseif h > 0.2 then
    u =
 2;
  else
    u = 0;
  end if;
  for i in 1:3 loop
    w[i] = i*u;
  end for;
  when h <= 0 then
    reinit(v, -0.8*pre(v));
  end when;
  annotation(Documentation(info = "<html>end when;</html>"), experiment(Stot parameter Real k = 1;
    Real x(start = 1, fixed = true);
  equation
    der(x) = -k*x;
  end Decay;
end Lib;

model SyntaxNearMiss
  /* not code: end when; end if; eNd SyntaxNearMiss; */
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
  els of parse-syntax-error: every construct of the truncated and
// mismatched cases, written correctly: matching `end` names, `end when` and
// `end if` in their places, strings holding `;`, `end if;` and escaped quotes,
 = 0.5, fixed = 4rue);
  Real y(start = 0.5, fixed = true);
  Real vx(start = 0), vy(start = 0);
  Real lam
end PendulumInconsiste// a block comment holding `end when;`, and a file that ends right after
// `end SyntaxNearMiss;` with no newline.
// status: good
packag'e Lib "a package \"with\" quotes; and end if;"
  model Decay
    parameter Real k = 2;
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
  elsnteif h > 0.2 then
    u = 2;
  else
    u = 0;
  end if;
  for i in 1:3 loop
    w[i] = i*u;
Start;  end for;
  when h <= 0 then
    reinit(v, -0.8*pre(v));
  end when;
  annotation(Documentation(info = "<html>end when;</html>"), experiment(StopTime = 1));
end Syntaxseif h > 0.2 then
    u =
 2;
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