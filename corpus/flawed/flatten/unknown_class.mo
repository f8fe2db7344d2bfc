// A component of a class that is declared nowhere.
// status: flawed
// expect: flatten-undefined-name at 7:3 "class 'Foo' is not defined"
model UnknownClass
  Real x(start = 1);
  Real y;
  Foo f;
equation
  der(x) = -x;
  y = x;
end UnknownClass;
