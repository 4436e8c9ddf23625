#!/usr/bin/env bash
# The main job: set up .venv if needed, then run `tpu-vision` (default: the device report).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
if [ $# -eq 0 ]; then set -- describe; fi
exec .venv/bin/tpu-vision "$@"
