// An `end if;` with no if-equation open.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 9:3 "'end if' without a matching 'if'"
model ExtraEndIf
  Real x(start = 1);
equation
  der(x) = -x;
  end if;
end ExtraEndIf;
