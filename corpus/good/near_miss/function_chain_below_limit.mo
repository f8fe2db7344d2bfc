// Near miss of the function-work limit (corpus/flawed/limit/function_call_chain.mo):
// the same chain, 13 functions deep, inlines 2^13 - 1 = 8191 calls, far
// below the limit of one million: F12(x) = 4096*(x + 1).
// status: good
function F0
  input Real x;
  output Real y;
algorithm
  y := x + 1;
end F0;
function F1
  input Real x;
  output Real y;
algorithm
  y := F0(x) + F0(x);
end F1;
function F2
  input Real x;
  output Real y;
algorithm
  y := F1(x) + F1(x);
end F2;
function F3
  input Real x;
  output Real y;
algorithm
  y := F2(x) + F2(x);
end F3;
function F4
  input Real x;
  output Real y;
algorithm
  y := F3(x) + F3(x);
end F4;
function F5
  input Real x;
  output Real y;
algorithm
  y := F4(x) + F4(x);
end F5;
function F6
  input Real x;
  output Real y;
algorithm
  y := F5(x) + F5(x);
end F6;
function F7
  input Real x;
  output Real y;
algorithm
  y := F6(x) + F6(x);
end F7;
function F8
  input Real x;
  output Real y;
algorithm
  y := F7(x) + F7(x);
end F8;
function F9
  input Real x;
  output Real y;
algorithm
  y := F8(x) + F8(x);
end F9;
function F10
  input Real x;
  output Real y;
algorithm
  y := F9(x) + F9(x);
end F10;
function F11
  input Real x;
  output Real y;
algorithm
  y := F10(x) + F10(x);
end F11;
function F12
  input Real x;
  output Real y;
algorithm
  y := F11(x) + F11(x);
end F12;
model FunctionChainBelowLimit
  Real x(start = 0, fixed = true);
  Real z;
equation
  der(x) = 1;
  z = F12(x);
end FunctionChainBelowLimit;
