#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run the full audit of
# the default corpus model, writing its report to audit-report/.
set -uo pipefail
cd "$(dirname "$0")"
.ci/install-deps || exit $?
.ci/build || exit $?
model=${1:-corpus/good/bouncing_ball.mo}
echo "audit.sh: auditing $model"
build/analyzer/modeaudit check "$model" --dump-after=parse > /dev/null
echo "audit.sh: the model parses; writing the report to audit-report/"
build/analyzer/modeaudit report "$model" -o audit-report
rc=$?
if [ $rc -eq 2 ]; then
  echo "audit.sh: the report could not be produced (see the line above): not every stage is built yet" >&2
fi
exit $rc
