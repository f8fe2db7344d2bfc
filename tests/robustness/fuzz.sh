#!/usr/bin/env bash
# Builds the libFuzzer harnesses (tests/fuzz/) with clang, ASan and UBSan in
# build-fuzz/ and runs each for SECONDS, one after the other, under nice,
# seeded with every corpus model (corpus/**/*.mo).
#
#   tests/robustness/fuzz.sh SECONDS [parse|flatten|check|simulate|library|selection ...]
#
# library and selection build a small file tree from each input
# (tests/fuzz/fuzz_tree.h: package.mo/package.order files, folders, links
# that loop or dangle, odd names) and load it as a library or select models
# from it (and read the input as a --files-from list); they are seeded with
# the corpus models too, whose bytes they read as records.
#
# With FUZZ_PARALLEL=1 the harnesses run at the same time (each still for
# SECONDS of wall time, sharing the cores), so that four 30-minute runs
# take 30 minutes.
#
# Needs clang-14 and libclang-rt-14-dev (Debian 12). The grown corpus stays in
# build-fuzz/fuzz-corpus/HARNESS/ (reused by the next run), the log of each
# run in build-fuzz/fuzz-HARNESS.log, and any crash, timeout or out-of-memory
# input in build-fuzz/fuzz-artifacts/HARNESS/ (beside libFuzzer's slow-unit-*
# files, which are listed but are not findings). A finding becomes a corpus
# regression model once fixed (tests/robustness/README.md). Exit 1 when a
# harness found something.
set -euo pipefail
cd "$(dirname "$0")/../.."

if [ $# -lt 1 ] || ! [[ "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: tests/robustness/fuzz.sh SECONDS [parse|flatten|check|simulate|library|selection ...]" >&2
  exit 2
fi
seconds=$1; shift
harnesses=("$@")
[ ${#harnesses[@]} -eq 0 ] && harnesses=(parse flatten check simulate)

cxx=${CXX_FUZZ:-clang++-14}
if ! command -v "$cxx" >/dev/null 2>&1; then
  echo "fuzz.sh: $cxx not found; apt-get install clang-14 libclang-rt-14-dev" >&2
  exit 2
fi

nice -n 19 cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER="$cxx" \
  -DMODEAUDIT_FUZZ=ON -DMODEAUDIT_BUILD_TESTS=OFF > build-fuzz.log 2>&1 || { cat build-fuzz.log; exit 2; }
targets=()
for h in "${harnesses[@]}"; do targets+=("modeaudit_fuzz_$h"); done
if ! nice -n 19 cmake --build build-fuzz -j "${FUZZ_BUILD_JOBS:-2}" --target "${targets[@]}" >> build-fuzz.log 2>&1; then
  grep -E "error" build-fuzz.log | head -n 40
  echo "fuzz.sh: the build failed; see build-fuzz.log" >&2
  exit 2
fi

# Per-input limits: a slower input is a hang, a larger one an out-of-memory.
# flatten evaluates functions up to their 100,000-iteration loop limit: the
# corpus model function_no_termination takes 0.25 s in a release build and
# took 35 s under the sanitizers with four harnesses sharing two cores.
declare -A timeout=([parse]=30 [flatten]=60 [check]=60 [simulate]=60 [library]=30 [selection]=30)
declare -A max_len=([parse]=16384 [flatten]=8192 [check]=4096 [simulate]=4096 [library]=4096 [selection]=4096)
# The process's resident memory, not one input's: under ASan the quarantine
# (256 MiB) and libFuzzer's own tables grow over a run. The simulate harness
# reached 2,049 MiB after 24 minutes (40,321 inputs; live heap 92 MiB, most
# of it libFuzzer's and Z3's) on an input that needs 73 MiB in a Release
# build; the check harness reached 2,056 MiB after 16 minutes (40,800
# inputs) on an input that needs 36 MiB and 1.8 s in a Release build (kept as
# tests/robustness/models/fuzz/check_oom_43d95abd.mo). A single allocation
# above 2 GiB is still a finding (-malloc_limit_mb).
declare -A rss_limit=([parse]=2048 [flatten]=2048 [check]=4096 [simulate]=4096 [library]=2048 [selection]=2048)

run_one() {
  local h=$1
  local corpus=build-fuzz/fuzz-corpus/$h
  local artifacts=build-fuzz/fuzz-artifacts/$h/
  mkdir -p "$corpus" "$artifacts"
  # Seeds per harness: harnesses running at once must not share the folder.
  local seeds=build-fuzz/fuzz-seeds/$h
  rm -rf "$seeds"; mkdir -p "$seeds"
  local n=0
  while IFS= read -r -d '' f; do cp "$f" "$seeds/$n.mo"; n=$((n + 1)); done \
    < <(find corpus -name '*.mo' -print0 | sort -z)
  local log=build-fuzz/fuzz-$h.log
  echo "fuzz.sh: $h for ${seconds}s ($n seed models), log $log"
  # CLN and GiNaC leak a few bytes on purpose (see analyzer/cli/main.cpp).
  # libFuzzer calls the harness on the main thread, whose stack is the
  # shell's limit (8 MiB), where the tool runs its command on a 1 GiB stack
  # (analyzer/common/large_stack.h). Under ASan a frame is far larger than
  # in a Release build: 200 nested function calls overflowed 8 MiB (and fit
  # in 16), where a Release build needs under 256 KiB. The harness gets
  # 48 MiB: ASan stops cleaning the stack after an exception on a stack over
  # 64 MiB ("ASan is ignoring requested __asan_handle_no_return") and then
  # reports false stack-buffer-overflows; a 1 GiB limit gave two.
  local rc=0
  ( ulimit -s 49152 2>/dev/null || true
  ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
    nice -n 19 "build-fuzz/tests/fuzz/modeaudit_fuzz_$h" "$corpus" "$seeds" \
      -dict=tests/fuzz/modelica.dict -max_total_time="$seconds" -timeout="${timeout[$h]}" \
      -rss_limit_mb="${rss_limit[$h]}" -malloc_limit_mb=2048 -max_len="${max_len[$h]}" -print_final_stats=1 \
      -artifact_prefix="$artifacts" > "$log" 2>&1 ) || rc=$?
  local last
  last=$(grep -E '^#[0-9]+' "$log" | tail -n 1 || true)
  echo "fuzz.sh: $h: exit $rc; last status: $last"
  grep -E '^stat::' "$log" | sed "s/^/fuzz.sh: $h: /" || true
  # libFuzzer also writes slow-unit-* files (inputs over 10 s, under the
  # timeout): listed, not findings.
  local listing found slow
  listing=$(ls -A "$artifacts")
  found=$(grep -Ev '^slow-unit-' <<< "$listing" || true)
  slow=$(grep -Ec '^slow-unit-' <<< "$listing" || true)
  if [ "$slow" -gt 0 ]; then echo "fuzz.sh: $h: $slow slow units (not findings) in $artifacts"; fi
  if [ $rc -ne 0 ] || [ -n "$found" ]; then
    echo "fuzz.sh: $h found something: $found" >&2
    grep -E 'ERROR|SUMMARY|runtime error|escaping' "$log" | head -n 5 >&2 || true
    return 1
  fi
  return 0
}

rm -rf build-fuzz/fuzz-seeds
status=0
if [ "${FUZZ_PARALLEL:-0}" = 1 ]; then
  pids=()
  for h in "${harnesses[@]}"; do run_one "$h" & pids+=($!); done
  for p in "${pids[@]}"; do wait "$p" || status=1; done
else
  for h in "${harnesses[@]}"; do run_one "$h" || status=1; done
fi
exit $status
