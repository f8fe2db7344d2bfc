// A modifier in an extends clause that names a component the base class does
// not have (`vv` for `v`): it must be refused, not ignored.
// status: flawed
// expect: flatten-undefined-name at 13:44 "'vv'"
partial model Base
  Real v;
  Real x;
equation
  der(x) = v;
end Base;

model ExtendsModifierUnknown
  extends Base(x(start = 1, fixed = true), vv(start = 2));
equation
  v = -x;
end ExtendsModifierUnknown;
