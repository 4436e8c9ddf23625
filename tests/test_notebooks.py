"""Run every notebook's tests, each with `nbdev-test` in a fresh process (XLA state and compile caches start clean).

TPU_VISION_TEST_FLAGS adds test flags from `tst_flags` (e.g. "slow") that are skipped by default.
"""
import os, subprocess, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
# The slowest first: tools/test.sh runs the notebooks on 2 workers (pytest-xdist), and a long one started last would
# leave the other worker idle at the end.
SLOWEST = ['10_cli.ipynb', '03_learner.ipynb', '06_export.ipynb', '03a_models.ipynb']
NBS = sorted((p.name for p in (ROOT/'nbs').glob('*.ipynb')), key=lambda n: (SLOWEST.index(n) if n in SLOWEST else 99, n))

# 07_parallel trains XLA replicas on the CPU. XLA:CPU (torch_xla 2.9) aborts a collective when one replica reaches it
# more than 10 s after the other, a timeout it hard-codes, and another job loading the 2 cores can cause that; so its
# tests run alone, after the others (tools/test.sh runs `-m alone` separately).
ALONE = {'07_parallel.ipynb'}

def test_found_notebooks(): assert '00_device.ipynb' in NBS and 'index.ipynb' in NBS, NBS

@pytest.mark.parametrize('nb', [pytest.param(n, marks=pytest.mark.alone) if n in ALONE else n for n in NBS])
def test_notebook(nb):
    cmd = [str(Path(sys.executable).parent/'nbdev-test'), nb]
    if os.environ.get('TPU_VISION_TEST_FLAGS'): cmd += ['--flags', os.environ['TPU_VISION_TEST_FLAGS']]
    env = {k:v for k,v in os.environ.items() if k not in ('PJRT_DEVICE', 'CPU_NUM_DEVICES')}
    r = subprocess.run(cmd, cwd=ROOT/'nbs', capture_output=True, text=True, env=env)
    assert r.returncode == 0 and 'Success.' in r.stdout, f'{nb} failed:\n{r.stdout[-3000:]}\n{r.stderr[-8000:]}'
