#!/usr/bin/env bash
# Regenerates the golden review reports in reports/golden/ from the corpus
# models, with the modeaudit built in build/ (run .ci/build first):
#   reports/refresh-golden.sh [path/to/modeaudit]
# Run it from anywhere; it works in the repository's top folder so that
# the reports name the models by their relative paths, exactly as the
# ctest `report.golden` does (tests/cli/golden_report.cmake). Review the
# diff (git diff reports/golden) before committing it: a change there is
# a change of what a reviewer reads.
set -euo pipefail
cd "$(dirname "$0")/.."
exe="${1:-build/analyzer/modeaudit}"
if [ ! -x "$exe" ]; then
  echo "refresh-golden: no modeaudit at '$exe'; build first (.ci/build) or pass its path" >&2
  exit 2
fi
# model file            report base name (the model class)
models=(
  "corpus/good/cup_and_ball.mo CupAndBall"
  "corpus/good/rldc2.mo RLDC2"
)
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
for entry in "${models[@]}"; do
  read -r model base <<<"$entry"
  # Exit 1 (error findings) still writes the report; 2 and 3 do not count as one.
  set +e
  "$exe" report "$model" -o "$tmp/$base" --no-pdf --reproducible >"$tmp/$base.log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ge 2 ] || [ ! -f "$tmp/$base/$base.md" ]; then
    echo "refresh-golden: modeaudit report $model failed (exit $rc):" >&2
    cat "$tmp/$base.log" >&2
    exit 2
  fi
  cp "$tmp/$base/$base.md" "reports/golden/$base.md"
  cp "$tmp/$base/$base.json" "reports/golden/$base.json"
  echo "refresh-golden: reports/golden/$base.md and .json from $model"
done
