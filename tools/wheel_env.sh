#!/usr/bin/env bash
# A newcomer's environment: build the sdist and wheel of this checkout into dist/ and install it -- not editable, no [dev] --
# with the `notebooks` extra into .venv-wheel/, plus torch_xla 2.9 (without libtpu) so that PJRT_DEVICE=CPU stands in
# for a TPU. tests/test_notebooks.py runs each notebook there, copied alone into an empty folder; tests/test_wheel.py
# checks the wheel and runs the CLI from it. Prints the wheel's path. Needs .venv (tools/setup.sh) for uv.
set -euo pipefail
cd "$(dirname "$0")/.."
V=.venv-wheel
rm -rf dist && mkdir -p dist
.venv/bin/uv build -q -o dist . >&2   # the sdist, and the wheel built from it, as PyPI gets them
whl=$(ls "$PWD"/dist/tpu_vision-*.whl)
# The extras' requirements change only with pyproject.toml: reinstall everything then, else only the wheel.
stamp=$(sha1sum pyproject.toml | cut -c1-40)
if [ "$(cat $V/.stamp 2>/dev/null)" != "$stamp" ]; then
  rm -rf $V
  .venv/bin/uv venv -q --python .venv/bin/python $V >&2
  # The torch/torchvision/torch_xla that [dev] pinned in .venv, not written twice (never torch_xla[tpu]: libtpu
  # queries a cloud metadata server at start).
  pins=$(.venv/bin/python -c "import importlib.metadata as m; print(' '.join(f'{p}=={m.version(p)}' for p in ('torch', 'torchvision', 'torch_xla')))")
  # `litert` and `vitis` too: 06a_edge and 06h_vitis install them themselves on Colab (not in `notebooks`: see
  # pyproject.toml).
  .venv/bin/uv pip install -q --compile-bytecode --python $V/bin/python "$whl[notebooks,litert,vitis]" $pins >&2
  echo "$stamp" > $V/.stamp
else
  .venv/bin/uv pip install -q --compile-bytecode --python $V/bin/python --reinstall-package tpu-vision --no-deps "$whl" >&2
fi
echo "$whl"
