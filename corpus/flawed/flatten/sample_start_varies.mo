// sample(start, interval) whose start is not a parameter expression
// (Modelica 3.6, 3.7.5): the sampling instants would move with time.
// status: flawed
// expect: flatten-type-mismatch at 8:15 "the start of sample() must be a parameter expression"
model SampleStartVaries
  Integer i(start = 0, fixed = true);
equation
  when sample(time, 0.1) then
    i = pre(i) + 1;
  end when;
end SampleStartVaries;
