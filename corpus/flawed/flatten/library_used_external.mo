// A model that uses a library class calling an external function: refused
// where the external clause is written (corpus/libraries/Lazy.mo), and only
// that; the library's other refused constructs are in classes not used.
// status: flawed
// library: ../../libraries/Lazy.mo
// expect: flatten-unsupported-construct at 27:3 "external function is not supported"
model UsesLibraryExternal
  Lazy.UsesExternal u;
end UsesLibraryExternal;
