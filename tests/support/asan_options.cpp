// Linked into every test and benchmark executable. In a sanitizer build
// (MODEAUDIT_SANITIZE): CLN allocates a few bytes at start-up that it never
// frees (and GiNaC on a division by zero); LeakSanitizer would fail every
// run on them, so leak detection is off by default (ASAN_OPTIONS overrides).
#if defined(__SANITIZE_ADDRESS__)
extern "C" const char* __asan_default_options() { return "detect_leaks=0"; }
#endif
