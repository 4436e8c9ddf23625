#!/usr/bin/env bash
# The main job: set up .venv if needed, then run `tpu-vision` (default: `tpu-vision train`, the sample dataset).
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
if [ $# -eq 0 ]; then set -- train; fi
exec .venv/bin/tpu-vision "$@"
