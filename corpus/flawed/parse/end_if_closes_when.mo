// A when-clause closed with `end if;`.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 13:3 "expected 'end when'"
model EndIfClosesWhen
  Real h(start = 1);
  Real v;
equation
  der(h) = v;
  der(v) = -9.81;
  when h <= 0 then
    reinit(v, -0.8*pre(v));
  end if;
end EndIfClosesWhen;
