// Near miss of parse-invalid-encoding: valid UTF-8 of 2, 3 and 4 bytes in
// comments, description strings and a quoted identifier; température, 5 €, 😀.
// status: good
model Utf8Text "Modèle thermique: température en °C"
  /* Ω, µ, ü, 中文: all valid UTF-8 in a block comment */
  parameter Real tau = 2 "constante de temps (τ)";
  Real 'température'(start = 20, fixed = true) "température du bloc, en °C";
  Real q "flux de chaleur, W ☀";
equation
  der('température') = -q/tau; // refroidissement
  q = 'température' - 15;
end Utf8Text;
