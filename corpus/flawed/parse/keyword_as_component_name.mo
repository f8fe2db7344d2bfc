// The keyword `end` used as a component name: one error, at the keyword; the
// parser must not take it as the end of the model and cascade into the
// equations that follow.
// status: flawed
// stage: parse
// expect: parse-syntax-error at 8:8 "found 'end'"
model KeywordAsComponentName
  Real end "end position";
  Real x(start = 1);
equation
  der(x) = -x;
end KeywordAsComponentName;
