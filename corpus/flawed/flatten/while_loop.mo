// A while loop in an algorithm section.
// status: flawed
// expect: flatten-unsupported-construct at 11:5 "while loop is not supported in a model"
model WhileLoop
  Real x(start = 1);
  discrete Integer n(start = 0);
equation
  der(x) = -x;
algorithm
  when x < 0.5 then
    while n < 3 loop
      n := n + 1;
    end while;
  end when;
end WhileLoop;
