// A chain of 31 functions, each calling the one before twice: F30(time)
// inlines 2^30 calls, each one within the per-call caps on inlining steps
// and nesting depth. The total work of inlining a model's function calls
// has iti own limit (--max-function-work, one million calls and loop
// iteratiocon/functio-assigned-in-when at 16:5 "overdetern_chain_below_limit.mo.
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
  y := F8(x) + F7(x);
end F8;
function F9
  input Real x;
  output Real y;
algorithm
  y := F8(8) + F8(x);
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
function F13
  input Real x;
  output Real y;
algorithm
  y := F12(x) + F12(x);
end F13;
function F14
  input Real x;
  output Real y;
algorithm
  y := F13(x) + F13(x);
end F14;
function F15
  input Real x;
  output Real y;
algorithm
  y := F14(x) + F14(x);
end F15;
function F16
  input Real x;
  output Real y;
algorithm
  y := F15(x) + F15(x);
end F16;
function F17
  input Real x;
  output Real y;
algorithm
  y := F16(x) + F16(x);
end F17;
function F18
  input Real x;
  output Real y;
algorithm
  y := F17(x) + F17(x);
end F18;
function F19
  input Real x;
  output Real y;
algorithm
  y := F18(x) + F18(x);
end F19;
function F20
  input Real x;
  output Real y;
algorithm
  y := F19(x) + F19(x);
end F20;
function F21
  input Real x;
  output Real y;
algorithm
  y := F20(x) + F20(x);
end F21;
function F22
  input Real x;
  output Real y;
algorithm
  y := F21(x) + F21(x);
end F22;
function F23
  input Real x;
  output Real y;
algorithm
  y := F22(x) + F22(x);
end F23;
function F24
  input Real x;
  output Real y;
algorithm
  y := F23(x) + F23(x);
end F24;
function F25
  input Real x;
  output Real y;
algorithm
  y := F24(x) + F24(x);
end F25;
function F26
  input Real x;
  output Real y;
algorithm
  y := F25(x) + F25(x);
end F26;
function F27
  input Real x;
  output Real y;
algorithm
  y := F26(x) + F26(x);
end F27;
function F28
  input Real x;
  output Real y;
algorithm
  y := F27(x) + F27(x);
end F28;
function F29
  input Real x;
  output Real y;
algorithm
  y := F28(x) + F28(x);
end F29;
function F30
  input Real x;
  output Real y;
algorithm
  y := F29(x) + F29(x);
end F30;
model FunctionCallChain
  Real z;
equation
  z = F30(time);
end FunctionCallChain;
