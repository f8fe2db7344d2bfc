// der() of an Integer: only Real expressions have derivatives, constant
// ones included (Modelica 3.6, 3.7.4).
// status: flawed
// expect: flatten-type-mismatch at 7:12 "der() takes a Real expression; 'n' is an Integer"
model DerOfInteger
  constant Integer n = 1;
  Real a = der(n);
end DerOfInteger;
