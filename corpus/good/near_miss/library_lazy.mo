// Near miss of flawed/flatten/library_used_external.mo: the same one-file
// library (corpus/libraries/Lazy.mo) holds a while loop, a class
// redeclaration and an external function, but this model uses only its clean
// class, so nothing is refused.
// status: good
// library: ../../libraries/Lazy.mo
model LazyDecay
  Lazy.Decay a(k = 2);
  Lazy.Decay b;
end LazyDecay;
