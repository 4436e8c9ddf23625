#!/usr/bin/env bash
# The whole test suite, from a fresh clone: set up, check that notebooks and library agree, build the wheel and install
# it in a fresh venv, run every notebook's tests there -- each notebook copied alone into an empty folder, as a user
# gets it (the XLA path runs on the CPU through PJRT_DEVICE=CPU) -- test the wheel and the CLI from it, build the docs
# site and test it in Chromium.
# Extra arguments go to pytest, e.g. `bash tools/test.sh -k device`. TPU_VISION_TEST_FLAGS="slow" adds slow cells.
set -euo pipefail
cd "$(dirname "$0")/.."
bash tools/setup.sh
bash tools/test_deps.sh
export PATH="$PWD/.venv/bin:$PATH"
# pip's resolver on every documented install (tools/pip_resolve.py), in the background while the tests run: it waits on
# the network, not the CPU. Its verdict is read at the end: a conflict, or a resolve past its limit, fails the run.
# (Only for the whole suite, as CI runs it: not with pytest arguments.)
RESOLVE=; if [ $# -eq 0 ]; then python tools/pip_resolve.py > .pip_resolve.log 2>&1 & RESOLVE=$!; fi
unset PJRT_DEVICE CPU_NUM_DEVICES   # the notebooks ask for the XLA device themselves where they test it
echo "== notebooks and library in sync?"
nbdev-clean
nbdev-export
python tools/build_docs.py readme
if [ -n "$(git status --porcelain --untracked-files=no)" ]; then
  echo "FAIL: the notebooks, the exported library and README.md differ. Run nbdev-export, nbdev-clean and"
  echo "python tools/build_docs.py readme, then commit:"; git status --porcelain --untracked-files=no; git --no-pager diff --stat
  exit 1
fi
echo "== notebook cell sizes (tools/nb_stats.py)"
python tools/nb_stats.py --check
echo "== the wheel, installed in a fresh venv as a newcomer gets it (tools/wheel_env.sh)"
TPU_VISION_WHEEL=$(bash tools/wheel_env.sh)
export TPU_VISION_WHEEL TPU_VISION_WHEEL_PYTHON="$PWD/.venv-wheel/bin/python"
python tools/colab.py --check
echo "== tests (each notebook copied alone into an empty folder, run against that wheel)"
# Two workers: most of a notebook's time is one core's (imports, subprocesses, XLA compiles), and the machine has two.
rc=0; python -m pytest tests -v -p no:cacheprovider --durations=0 -n 2 --dist worksteal "$@" || rc=$?
if [ -n "$RESOLVE" ]; then
  echo "== pip resolves every documented install? (tools/pip_resolve.py)"
  wait $RESOLVE && rrc=0 || rrc=$?
  cat .pip_resolve.log
  [ $rrc -eq 0 ] || { echo "FAIL: pip could not resolve an install the README documents (above)"; exit 1; }
fi
[ $rc -eq 0 ] || [ $rc -eq 5 ] || exit $rc   # pytest exits 5 when `"$@"` selects no test
