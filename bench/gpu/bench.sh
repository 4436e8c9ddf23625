#!/usr/bin/env bash
# Run THERE, on a lent GPU (see prepare.sh), as one call of the `device` tool: `tpu-vision bench --device cuda` (09b_bench),
# the command a GPU user runs, for issue 37's evidence: ResNet-50 at 128 px, bf16 (the H200's auto precision), on the
# packaged sample (1,000 training images: each epoch is short, so 5 rounds). bench.json and bench.md land in $OUT, the
# log beside them. Not run yet (no GPU lent since it was written); budget about 8 minutes, most of it compiling.
#   run(command="bash bench/gpu/bench.sh", carry=[".whl", ".gpu_data"], timeout_s=560)
set -uo pipefail
source "$(dirname "$0")/env.sh"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
out="${OUT:-/tmp}/bench_gpu"; mkdir -p "$out"
# `tpu-vision` is `python3 -m tpu_vision.cli` (the checkout is on PYTHONPATH there, not installed)
timeout 540 python3 -m tpu_vision.cli bench --device cuda --arch "${ARCH:-resnet50}" --size "${SIZE:-128}" \
  --bs "${BS:-128}" --rounds "${ROUNDS:-5}" --out "$out" 2>&1 | tee "$out/bench.log"
