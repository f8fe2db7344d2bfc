#!/usr/bin/env bash
# Quick start (1): install what is missing, build, and run the full audit of
# the default corpus model (the ball on a rope), writing its report to
# audit-report/. Another model can be given as the first argument.
set -uo pipefail
cd "$(dirname "$0")"
.ci/install-deps || exit $?
.ci/build || exit $?
model=${1:-corpus/good/cup_and_ball.mo}
mkdir -p audit-report
echo "audit.sh: auditing $model"
# What the built static stages find (findings, then every transition's
# verdict and restart), kept beside the report.
build/analyzer/modeaudit check "$model" --dump-after=restart > audit-report/front-end.txt
rc=$?
cat audit-report/front-end.txt
[ $rc -le 1 ] || exit $rc
echo "audit.sh: static results written to audit-report/front-end.txt; writing the report to audit-report/"
build/analyzer/modeaudit report "$model" -o audit-report
rc=$?
if [ $rc -eq 2 ]; then
  echo "audit.sh: the report in audit-report/ is incomplete or a file is missing (see the lines above): not every stage is built yet" >&2
fi
exit $rc
