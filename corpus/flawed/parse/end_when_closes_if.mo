// An if-equation closed with `end when;`.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 14:3 "end if"
model EndWhenClosesIf
  Real x(start = 1);
  Real y;
equation
  der(x) = -x;
  if x > 0.5 then
    y = x;
  else
    y = 0;
  end when;
end EndWhenClosesIf;
