// Two classes that extend each other.
// status: flawed
// expect: flatten-recursive-class at 10:3 "extends"
model A
  extends B;
  Real a;
end A;

model B
  extends A;
  Real b;
end B;

model ExtendsRecursion
  A x;
equation
  x.a = 1;
  x.b = 2;
end ExtendsRecursion;
