"""Run every notebook's tests as a newcomer would: each notebook copied alone into an empty folder and run there, in a
fresh venv that holds the built wheel with its `notebooks` extra (tools/wheel_env.sh), not this repository.

Each runs in a fresh process (XLA state and compile caches start clean) through nbdev's `test_nb`, skipping the cells
flagged in `tst_flags` (`slow`) as `nbdev-test` does; TPU_VISION_TEST_FLAGS runs some of them too (e.g. "slow").
"""
import os, shutil, signal, subprocess, sys
from pathlib import Path
import pytest
from conftest import newcomer_env

ROOT = Path(__file__).resolve().parents[1]
# The slowest first: tools/test.sh runs the notebooks on 2 workers (pytest-xdist), and a long one started last would
# leave the other worker idle at the end.
SLOWEST = ['10_cli.ipynb', '12_guides.ipynb', '03_learner.ipynb', '07_parallel.ipynb', '03a_models.ipynb', '08_tune.ipynb',
           '04_optim.ipynb', '05_distill.ipynb', '06a_edge.ipynb', '06_export.ipynb', '00_device.ipynb',
           '02_augment.ipynb']   # by the durations of the full run on 2026-12-04 (tools/test.sh, --durations)
NBS = sorted((p.name for p in (ROOT/'nbs').glob('*.ipynb')), key=lambda n: (SLOWEST.index(n) if n in SLOWEST else 99, n))

RUN = '''import sys
from nbdev.test import test_nb
flags = sys.argv[2].split()
ok, secs = test_nb(sys.argv[1], skip_flags=[f for f in ['slow'] if f not in flags], force_flags=flags, profile=False,
                   cell_timeout=900)
print('Success.' if ok else 'Failed.', f'{secs:.0f} s')
sys.exit(0 if ok else 1)'''

# A notebook that hangs (a deadlock in a child process) fails here with what it printed, instead of holding CI until
# its own limit: the slowest takes ~7 min alone on the 2-core machine.
LIMIT = 1200

def test_found_notebooks(): assert '00_device.ipynb' in NBS and 'index.ipynb' in NBS, NBS

@pytest.mark.parametrize('nb', NBS)
def test_notebook(nb, wheel, tmp_path):
    "`nb` copied alone into an empty folder runs top to bottom against the installed wheel"
    shutil.copy(ROOT/'nbs'/nb, tmp_path/nb)
    p = subprocess.Popen([str(wheel[1]), '-c', RUN, nb, os.environ.get('TPU_VISION_TEST_FLAGS', '')], cwd=tmp_path,
                         env=newcomer_env(tmp_path), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)   # its own process group: a timeout kills its children too
    try: out,err = p.communicate(timeout=LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL); out,err = p.communicate()
        pytest.fail(f'{nb} still running after {LIMIT} s, killed:\n{out[-3000:]}\n{err[-8000:]}')
    assert p.returncode == 0 and 'Success.' in out, f'{nb} failed:\n{out[-3000:]}\n{err[-8000:]}'
