#!/usr/bin/env bash
# Issue 47's GPU evidence in ONE call of the `device` tool (at most 9 minutes, at most 8 files in $OUT). Run HERE first:
# `bash bench/gpu/prepare.sh` (wheels in .whl/, Fashion-MNIST in .gpu_data/), then THERE:
#   run(command="bash bench/gpu/one_call.sh", carry=[".whl", ".gpu_data"], timeout_s=560)
# A: the main job (`tpu-vision train --device cuda`, its defaults) and, on the same shape, stock fastai against it
#    (bench/e2e.py: 1,000/300 Fashion-MNIST images, 64 px, bs 64, 3 epochs: stock, stock to_bf16(), files, cache);
# B: bench/e2e.py case (c), full Fashion-MNIST, resnet18 32 px, bs 256, 5 epochs, all its sides;
# C: `tpu-vision bench --device cuda --compile` (ResNet-50 128 px: every row, the compiled one too, since CUDA trains
#    eager by default now: the row that says whether compiling a long run pays).
# Each part has its own timeout (TA, TA2, TB, TC seconds) so a slow one leaves the others' results; the sum stays under
# 540 s. Files: env.txt, A_main.log, A_shape.json, B_e2e.log, B_e2e.json, C_bench.log, bench.json, bench.md.
# DRY=1: the same on this CPU with tiny sizes, to check the script (`DRY=1 OUT=/tmp/gpu_dry bash bench/gpu/one_call.sh`).
set -uo pipefail
O=${OUT:-/tmp/gpu_out}; mkdir -p "$O"
cd "$(dirname "${BASH_SOURCE[0]}")/../.." || exit 1
if [ -z "${DRY:-}" ]; then source bench/gpu/env.sh; D=cuda
else export PYTHONPATH=$PWD PYTHONUNBUFFERED=1 TPU_VISION_HOME=${TPU_VISION_HOME:-$PWD/.gpu_data}; D=cpu; fi
PY=${PY:-python3}
part() { echo "$1 rc=$2 $(( $(date +%s)-$3 ))s"; }
{ git rev-parse HEAD 2>/dev/null; nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader; nproc
  $PY -c "import torch,fastai;print('torch',torch.__version__,'fastai',fastai.__version__,'cuda',torch.cuda.is_available())"
  $PY -m tpu_vision.cli describe; } > "$O/env.txt" 2>&1

t=$(date +%s)
if [ -z "${DRY:-}" ]; then S="--n-train 1000 --n-valid 300 --epochs 3 --bs 64 --size 64"
else S="--n-train 200 --n-valid 100 --epochs 1 --bs 32 --size 16 --arch tiny"; fi
{ echo "== A main job"; timeout ${TA:-60} $PY -m tpu_vision.cli train --device $D --out /tmp/run_main $([ -n "${DRY:-}" ] && echo --epochs 1)
  part A $? $t; cat /tmp/run_main/run.json 2>/dev/null; t=$(date +%s)
  echo "== A2 e2e at the main job's shape"
  timeout ${TA2:-50} $PY bench/e2e.py --device $D $S --order stock,stock_bf16,tpu_vision,tpu_vision_cache --json "$O/A_shape.json"
  part A2 $? $t; } 2>&1 | tee "$O/A_main.log"

t=$(date +%s)
if [ -z "${DRY:-}" ]; then E="--n-train 60000 --n-valid 10000 --epochs 5 --bs 256"
else E="--n-train 300 --n-valid 100 --epochs 1 --bs 32 --size 16 --arch tiny"; fi
{ echo "== B e2e case (c)"; timeout ${TB:-260} $PY bench/e2e.py --device $D $E --order stock,tpu_vision_cache,tpu_vision \
    --json "$O/B_e2e.json"; part B $? $t; } 2>&1 | tee "$O/B_e2e.log"

t=$(date +%s)
if [ -z "${DRY:-}" ]; then C="--arch ${ARCH:-resnet50} --size ${SIZE:-128} --bs ${BS:-128} --rounds ${ROUNDS:-2} --compile"
else C="--tiny"; fi
rm -rf /tmp/C_bench
{ echo "== C bench"; timeout ${TC:-150} $PY -m tpu_vision.cli bench --device $D $C --out /tmp/C_bench; part C $? $t; } 2>&1 \
  | tee "$O/C_bench.log"
cp /tmp/C_bench/bench.json /tmp/C_bench/bench.md "$O/" 2>/dev/null; ls -la "$O"
