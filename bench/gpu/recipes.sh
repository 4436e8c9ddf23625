#!/usr/bin/env bash
# Run THERE, on a lent GPU (see prepare.sh), in a second call after case_c.sh: which recipe reaches 93 % on full
# Fashion-MNIST (resnet18, 32 px, 5 epochs; issue 13's target)? bench/recipe.py's variants side by side, bs 256.
# Log and JSON land in $OUT. About 6 minutes; VARIANTS=... and BS=... change what runs.
set -uo pipefail
source "$(dirname "$0")/env.sh"
timeout 560 python3 bench/recipe.py --device cuda --n-train 60000 --n-valid 10000 --epochs 5 --bs "${BS:-256}" \
  --variants "${VARIANTS:-fastai,light_ls,light_ls_nopool,fastai_ls}" --json "${OUT:-/tmp}/recipe_gpu.json" 2>&1 | tee "${OUT:-/tmp}/recipe_gpu.log"
