#!/usr/bin/env bash
# Set up .venv with tpu-vision[dev] (torch 2.9.1, torch_xla 2.9.0, fastai 2.8.12, nbdev 3.3.26, ...): all the main job
# (tools/main.sh) needs. What only the tests need (a browser, Debian's Fashion-MNIST, actionlint) is tools/test_deps.sh's.
# Idempotent: reinstalls only when pyproject.toml changed.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-}
if [ -z "$PY" ]; then if command -v python3.11 >/dev/null; then PY=python3.11; else PY=python3; fi; fi
[ -x .venv/bin/python ] || "$PY" -m venv .venv
stamp=$(sha1sum pyproject.toml setup.py | sha1sum | cut -c1-40)
if [ "$(cat .venv/.tpu_vision_installed 2>/dev/null)" != "$stamp" ]; then
  echo "setup: installing tpu-vision[dev] into .venv (first time: ~2 min with uv, ~8 GB)" >&2
  # uv downloads and installs in parallel: about 2 minutes here where pip took about 6; pip if uv can't be had.
  # --compile-bytecode as pip does: this machine sets PYTHONDONTWRITEBYTECODE, and without .pyc files every process
  # compiles torch and fastai again (the tests took twice as long).
  .venv/bin/python -m pip install -q --disable-pip-version-check uv 2>&1 | grep -v "^WARNING: Location" >&2 || true
  if ! { [ -x .venv/bin/uv ] && .venv/bin/uv pip install -q --compile-bytecode --python .venv/bin/python -e ".[dev]" >&2; }; then
    .venv/bin/python -m pip install -q --disable-pip-version-check -e ".[dev]" 2>&1 | grep -v "^WARNING: Location" >&2 || true
  fi
  .venv/bin/python -c "import torch_xla, fastai, nbdev, tpu_vision" 2>/dev/null || { echo "setup: install failed" >&2; exit 1; }
  echo "$stamp" > .venv/.tpu_vision_installed
fi
