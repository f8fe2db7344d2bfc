// The audited model is partial: it cannot be simulated on its own.
// status: flawed
// expect: flatten-type-mismatch at 4:15 "'PartialTwoPort' is partial"
partial model PartialTwoPort
  Real u1, u2;
  Real i1, i2;
equation
  i1 + i2 = 0;
end PartialTwoPort;
