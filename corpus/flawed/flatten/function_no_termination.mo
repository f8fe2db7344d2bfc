// A function whose while loop never ends for the value it is called with:
// the evaluation stops at its iteration limit with a finding at the loop,
// naming the call.
// status: flawed
// expect: flatten-invalid-value at 12:5 "does it terminate"
model FunctionNoTermination
  function spin
    input Real x;
    output Real y;
  algorithm
    y := x;
    while y > 0 loop
      y := y + 1;
    end while;
  end spin;
  parameter Real p = spin(1);
  Real x(start = 1, fixed = true);
equation
  der(x) = -p*x;
end FunctionNoTermination;
