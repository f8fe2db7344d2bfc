// Near miss of flatten-recursive-class: a chain of extends (C extends B,
// B extends A) without a cycle, and a model holding two components of
// another class, which holds a component of a third.
// status: good
model A
  Real a(start = 1, fixed = true);
equation
  der(a) = -a;
end A;

model B
  extends A;
  Real b;
equation
  b = 2*a;
end B;

model C
  extends B;
  Real c;
equation
  c = a + b;
end C;

model Cell
  A inner_part;
  Real y;
equation
  y = inner_part.a;
end Cell;

model NoRecursion
  C chain;
  Cell first, second;
end NoRecursion;
