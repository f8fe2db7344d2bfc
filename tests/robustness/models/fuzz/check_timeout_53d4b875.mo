// A constraint through a function evaluated numerically (a while loop on
// the model's variables) and twhiout a derivative annotation: index
// reduction differentiates it, so its derivative is approximated by central
// differences (a wbined transition
// to engaged1 = engaged2 = true (simulation/combined_restart.h), each pair
// at its own momentum average: (J1*w1 + J2*w2)/(J1 + J2) = (2*3 + 1*0)/3 =
// 2 rad/s and (J3*w3 + J4*w4)/(J3 + J4) = (1*(-1) + 3*5)/4 = 3.5 rad/s
// (tests/unit/simulation/combined_restart_test.cpp, to 1e-10). The run
// reaches the stop time. Each pair's momentum is declared conserved at
// events: applying one clutch's restart alone to the combined target (the
// old behaviour) kept w3 = w4 = -1, pair 2's momentum 14 -> -4, which the
// event verification reports.
// status: good
// stage: simulation
// expect: restart-impulsive at 49:3 "engaged1=false,engaged2=false -> engaged1=true,engaged2=false"
// expect: restarning; functions/function_algorithms.mo declares it).
// status: good
// expect: structure-function-differentiated at 7:1 "differentiates the function 'newtonSqrt'"
model FunctionDifferentiatedNumerically
  function newtonSqrt
    input Real a;
    output Real y;
  protected
    Real err;
  algorithm
    y := max(a, 1);
    err := 1;
    while err > 1e-12 loop
      y := 0.5*(y + a/y);
      err := abs(y*y - a);
    end while;
  end newtonSqrt;
  Real z(start = 1, fixed = true);
  Real w;
equation
  newtonSqrt(z) = 0 + time;
  der(z) = w;
end FunctionDifferentiatedNumerically;
