#!/usr/bin/env bash
# Quick start (2): install what is missing, build, run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")"
.ci/install-deps
.ci/build
ctest --test-dir build --output-on-failure -j "$(nproc)" -LE bench
