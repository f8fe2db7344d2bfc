// A division guarded by the quantity it divides by (y = x/u where |u| is
// not small, else x), with u = 0 in every mode and a time event between two
// modes: the idiom of the MSL's Magnetic.FluxTubes examples. Rewriting the
// equations with u = 0 (the modes' equal quantities, the transitions'
// canonical formulation) makes x/u a division by zero; that rewriting is
// then not applied and the equation is kept as written. It had ended in
// "internal error: power::eval(): division by zero" (exit 3).
// The regularity check evaluates both branches of the if-expression at
// u = 0, so it cannot establish the modes' numerical regularity: the two
// warnings say so (a limitation of the check, not of the model).
// status: good
// expect: structure-regularity-inconclusive at 14:1 "mode (time < 0.5)=true is not established"
// expect: structure-regularity-inconclusive at 14:1 "mode (time < 0.5)=false is not established"
model GuardedDivisionByZeroVariable
  Real x(start = 1, fixed = true);
  Real u;
  Real y;
equation
  u = 0;
  y = noEvent(if abs(u) > 1e-6 then x/u else x);
  der(x) = if time < 0.5 then -y else -2*y;
end GuardedDivisionByZeroVariable;
