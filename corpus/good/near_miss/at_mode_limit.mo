// Near miss of modes-limit-reached: twelve switches coupled by one assert
// on their states give exactly 2^12 = 4096 modes in one cluster, the
// exploration limit, which is not exceeded. (Without the assert they would
// be twelve independent parts, analysed one by one.)
// status: good
model AtModeLimit
  Real x1(start = 1, fixed = true);
  Real u1;
  Boolean on1(start = true, fixed = true);
  Real x2(start = 2, fixed = true);
  Real u2;
  Boolean on2(start = true, fixed = true);
  Real x3(start = 3, fixed = true);
  Real u3;
  Boolean on3(start = true, fixed = true);
  Real x4(start = 4, fixed = true);
  Real u4;
  Boolean on4(start = true, fixed = true);
  Real x5(start = 5, fixed = true);
  Real u5;
  Boolean on5(start = true, fixed = true);
  Real x6(start = 6, fixed = true);
  Real u6;
  Boolean on6(start = true, fixed = true);
  Real x7(start = 7, fixed = true);
  Real u7;
  Boolean on7(start = true, fixed = true);
  Real x8(start = 8, fixed = true);
  Real u8;
  Boolean on8(start = true, fixed = true);
  Real x9(start = 9, fixed = true);
  Real u9;
  Boolean on9(start = true, fixed = true);
  Real x10(start = 10, fixed = true);
  Real u10;
  Boolean on10(start = true, fixed = true);
  Real x11(start = 11, fixed = true);
  Real u11;
  Boolean on11(start = true, fixed = true);
  Real x12(start = 12, fixed = true);
  Real u12;
  Boolean on12(start = true, fixed = true);
equation
  assert(x1 + x2 + x3 + x4 + x5 + x6 + x7 + x8 + x9 + x10 + x11 + x12 > -1, "the states stay positive");
  der(x1) = -u1;
  when x1 < 0.5 then
    on1 = false;
  end when;
  if on1 then
    u1 = x1;
  else
    u1 = 0;
  end if;
  der(x2) = -u2;
  when x2 < 0.5 then
    on2 = false;
  end when;
  if on2 then
    u2 = x2;
  else
    u2 = 0;
  end if;
  der(x3) = -u3;
  when x3 < 0.5 then
    on3 = false;
  end when;
  if on3 then
    u3 = x3;
  else
    u3 = 0;
  end if;
  der(x4) = -u4;
  when x4 < 0.5 then
    on4 = false;
  end when;
  if on4 then
    u4 = x4;
  else
    u4 = 0;
  end if;
  der(x5) = -u5;
  when x5 < 0.5 then
    on5 = false;
  end when;
  if on5 then
    u5 = x5;
  else
    u5 = 0;
  end if;
  der(x6) = -u6;
  when x6 < 0.5 then
    on6 = false;
  end when;
  if on6 then
    u6 = x6;
  else
    u6 = 0;
  end if;
  der(x7) = -u7;
  when x7 < 0.5 then
    on7 = false;
  end when;
  if on7 then
    u7 = x7;
  else
    u7 = 0;
  end if;
  der(x8) = -u8;
  when x8 < 0.5 then
    on8 = false;
  end when;
  if on8 then
    u8 = x8;
  else
    u8 = 0;
  end if;
  der(x9) = -u9;
  when x9 < 0.5 then
    on9 = false;
  end when;
  if on9 then
    u9 = x9;
  else
    u9 = 0;
  end if;
  der(x10) = -u10;
  when x10 < 0.5 then
    on10 = false;
  end when;
  if on10 then
    u10 = x10;
  else
    u10 = 0;
  end if;
  der(x11) = -u11;
  when x11 < 0.5 then
    on11 = false;
  end when;
  if on11 then
    u11 = x11;
  else
    u11 = 0;
  end if;
  der(x12) = -u12;
  when x12 < 0.5 then
    on12 = false;
  end when;
  if on12 then
    u12 = x12;
  else
    u12 = 0;
  end if;
end AtModeLimit;
