// A function that returns a record, used for a record component's binding:
// records passed to or returned from functions are outside the subset, and
// refused at the binding that uses the function's record.
// status: flawed
// expect: flatten-unsupported-construct at 19:27 "records returned by functions are outside the subset"
record Gains
  parameter Real kp = 1;
  parameter Real ki = 0;
end Gains;

function tuned
  input Real tau;
  output Gains g;
algorithm
  g.kp := 1/tau;
end tuned;

model RecordFunctionOutput
  parameter Gains gains = tuned(2);
  Real x(start = 1, fixed = true);
equation
  der(x) = -gains.kp*x;
end RecordFunctionOutput;
