// An operator record in the style of the Modelica Standard Library's
// Complex (operator overloading of '+' and '*'): outside the subset, and
// refused where the record is written, since the model uses it.
// status: flawed
// expect: flatten-unsupported-construct at 6:1 "operator record is not supported"
operator record Phasor "A complex number, re + j*im"
  Real re;
  Real im;
  encapsulated operator '+'
    function add
      input Phasor a;
      input Phasor b;
      output Phasor c;
    algorithm
      c := Phasor(a.re + b.re, a.im + b.im);
    end add;
  end '+';
end Phasor;

model OperatorRecord
  Phasor u;
  Real x(start = 0, fixed = true);
equation
  u = Phasor(re = cos(time), im = sin(time));
  der(x) = u.re;
end OperatorRecord;
