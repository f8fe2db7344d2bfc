within Circuits;
package Constants "Mathematical and physical constants"
  final constant Real pi = 2*asin(1.0);
  final constant Real D2R = pi/180 "degree to radian";
  final constant Real T_zero = -273.15 "absolute zero in degree Celsius";
end Constants;
