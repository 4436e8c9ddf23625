#!/usr/bin/env bash
# Run THERE, on a lent GPU (see prepare.sh), as one call of the `device` tool, after bench.sh: 04_optim's levers one
# by one (bench/levers_bench.py): fastai's Adam on NCHW against channels_last, torch's foreach and fused AdamW, and both,
# ResNet-50 at 128 px, batch 128, the backend's auto precision (bf16 on an H200), eager and then compiled, accuracy
# beside each time. Not run yet (no GPU lent since it was written); budget about 6 minutes.
#   run(command="bash bench/gpu/levers.sh", carry=[".whl"], timeout_s=420)
set -uo pipefail
source "$(dirname "$0")/env.sh"
out="${OUT:-/tmp}/levers_gpu"; mkdir -p "$out"
for c in eager compiled; do
  flag=$([ "$c" = compiled ] && echo --compile)
  timeout 190 python3 bench/levers_bench.py --device cuda --arch "${ARCH:-resnet50}" --size "${SIZE:-128}" --bs "${BS:-128}" \
    --steps "${STEPS:-20}" --rounds "${ROUNDS:-5}" $flag --json "$out/levers_cuda_$c.json" 2>&1 | tee "$out/levers_$c.log"
done
