// A chain of 60 parameters, each the sum of the sine and the cosine of the
// previous one: the values share their subexpressions, but written out the
// 60th has about 2^60 operations. Every walk over it took time doubling at
// each level (minutes by level 25); it is refused at once as too large
// (limit-exceeded, --max-expression-terms), tests/CMakeLists.txt cli.limit_parameter_chain.
model ParameterChain
  parameter Real p0 = 0.5;
  parameter Real p1 = sin(p0) + cos(p0);
  parameter Real p2 = sin(p1) + cos(p1);
  parameter Real p3 = sin(p2) + cos(p2);
  parameter Real p4 = sin(p3) + cos(p3);
  parameter Real p5 = sin(p4) + cos(p4);
  parameter Real p6 = sin(p5) + cos(p5);
  parameter Real p7 = sin(p6) + cos(p6);
  parameter Real p8 = sin(p7) + cos(p7);
  parameter Real p9 = sin(p8) + cos(p8);
  parameter Real p10 = sin(p9) + cos(p9);
  parameter Real p11 = sin(p10) + cos(p10);
  parameter Real p12 = sin(p11) + cos(p11);
  parameter Real p13 = sin(p12) + cos(p12);
  parameter Real p14 = sin(p13) + cos(p13);
  parameter Real p15 = sin(p14) + cos(p14);
  parameter Real p16 = sin(p15) + cos(p15);
  parameter Real p17 = sin(p16) + cos(p16);
  parameter Real p18 = sin(p17) + cos(p17);
  parameter Real p19 = sin(p18) + cos(p18);
  parameter Real p20 = sin(p19) + cos(p19);
  parameter Real p21 = sin(p20) + cos(p20);
  parameter Real p22 = sin(p21) + cos(p21);
  parameter Real p23 = sin(p22) + cos(p22);
  parameter Real p24 = sin(p23) + cos(p23);
  parameter Real p25 = sin(p24) + cos(p24);
  parameter Real p26 = sin(p25) + cos(p25);
  parameter Real p27 = sin(p26) + cos(p26);
  parameter Real p28 = sin(p27) + cos(p27);
  parameter Real p29 = sin(p28) + cos(p28);
  parameter Real p30 = sin(p29) + cos(p29);
  parameter Real p31 = sin(p30) + cos(p30);
  parameter Real p32 = sin(p31) + cos(p31);
  parameter Real p33 = sin(p32) + cos(p32);
  parameter Real p34 = sin(p33) + cos(p33);
  parameter Real p35 = sin(p34) + cos(p34);
  parameter Real p36 = sin(p35) + cos(p35);
  parameter Real p37 = sin(p36) + cos(p36);
  parameter Real p38 = sin(p37) + cos(p37);
  parameter Real p39 = sin(p38) + cos(p38);
  parameter Real p40 = sin(p39) + cos(p39);
  parameter Real p41 = sin(p40) + cos(p40);
  parameter Real p42 = sin(p41) + cos(p41);
  parameter Real p43 = sin(p42) + cos(p42);
  parameter Real p44 = sin(p43) + cos(p43);
  parameter Real p45 = sin(p44) + cos(p44);
  parameter Real p46 = sin(p45) + cos(p45);
  parameter Real p47 = sin(p46) + cos(p46);
  parameter Real p48 = sin(p47) + cos(p47);
  parameter Real p49 = sin(p48) + cos(p48);
  parameter Real p50 = sin(p49) + cos(p49);
  parameter Real p51 = sin(p50) + cos(p50);
  parameter Real p52 = sin(p51) + cos(p51);
  parameter Real p53 = sin(p52) + cos(p52);
  parameter Real p54 = sin(p53) + cos(p53);
  parameter Real p55 = sin(p54) + cos(p54);
  parameter Real p56 = sin(p55) + cos(p55);
  parameter Real p57 = sin(p56) + cos(p56);
  parameter Real p58 = sin(p57) + cos(p57);
  parameter Real p59 = sin(p58) + cos(p58);
  parameter Real p60 = sin(p59) + cos(p59);
  Real x(start = 1, fixed = true);
equation
  der(x) = -p60*x;
end ParameterChain;
