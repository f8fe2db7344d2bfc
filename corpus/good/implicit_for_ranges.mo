// For-loops without `in range` (Modelica 3.6, 8.3.2.1): the range is the
// dimension the iterator subscripts, an Integer size or an enumeration's
// literals, also with several iterators and mixed with an explicit one.
// The asserts check every element against its closed form.
// status: good
// stage: simulation
model ImplicitForRanges
  type Axis = enumeration(x, y, z);
  parameter Real w[3] = {1, 2, 3};
  Real a[3];
  Real m[3, 2];
  Real s[Axis](each start = 1, each fixed = true);
equation
  for i loop
    a[i] = 2*w[i];
  end for;
  for i in 1:3, j loop
    m[i, j] = a[i]*j;
  end for;
  for k loop
    der(s[k]) = -Integer(k)*s[k];
  end for;
  assert(abs(a[3] - 6) < 1e-12 and abs(m[2, 2] - 8) < 1e-12 and abs(m[3, 1] - 6) < 1e-12, "a and m as written");
  assert(abs(s[Axis.z] - exp(-3*time)) < 1e-5, "s[z] decays at rate 3");
  annotation(experiment(StopTime = 1));
end ImplicitForRanges;
