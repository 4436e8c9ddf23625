#!/usr/bin/env bash
# Run HERE (a machine with pip and the Debian Fashion-MNIST package), before a lent GPU's one call:
# downloads the Python 3.12 wheels that the GPU machine lacks (fastai and what it imports, at the versions the tests
# run with) into .whl/ and copies the Fashion-MNIST IDX files into .gpu_data/fashion_mnist_idx/.
# Both folders are git-ignored; about 33 MB in all.
# Then, with the `device` tool: run(command="bash bench/gpu/case_c.sh", carry=[".whl", ".gpu_data"], timeout_s=540),
# and, time allowing, the same with "bash bench/gpu/recipes.sh". `bash bench/gpu/bench.sh` is `tpu-vision bench --device
# cuda` (09b_bench: stock fastai, to_tpu eager and compiled, a hand loop, the model alone, the loaders), run first.
set -euo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .whl .gpu_data/fashion_mnist_idx
cp /usr/share/datasets/fashion-mnist/*-ubyte.gz .gpu_data/fashion_mnist_idx/
plat=(); for p in manylinux_2_28_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 any; do plat+=(--platform "$p"); done
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp "${plat[@]}" -d .whl \
  fastai==2.8.12 fastcore==2.2.41 fasttransform==0.0.5 fastprogress==1.1.6 fastdownload==0.0.8 plum-dispatch==2.9.0 \
  beartype==0.23.1 python-fasthtml==0.14.14 starlette==1.10.0 itsdangerous==2.2.0 python-multipart==0.0.34 defusedxml==0.7.1
ls .whl; du -sh .whl .gpu_data
