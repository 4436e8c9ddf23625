#!/usr/bin/env bash
# Run THERE, on a lent GPU (see prepare.sh): bench/e2e.py case (c), full Fashion-MNIST, resnet18, 32 px, 5 epochs,
# bs 256, stock fastai and tpu_vision side by side in one run; the log and JSON land in $OUT. About 5 minutes.
set -uo pipefail
source "$(dirname "$0")/env.sh"
nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
python3 -c "import torch, fastai, tpu_vision; print('torch', torch.__version__, 'fastai', fastai.__version__)" || exit 1
timeout 500 python3 bench/e2e.py --device cuda --n-train 60000 --n-valid 10000 --epochs 5 --bs 256 \
  --order stock,tpu_vision_cache,tpu_vision --json "${OUT:-/tmp}/e2e_gpu.json" 2>&1 | tee "${OUT:-/tmp}/e2e_gpu.log"
