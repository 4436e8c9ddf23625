"""The built wheel, as a newcomer gets it: what it holds, and the CLI working from it with this repository out of reach.

The wheel and the venv it is installed in come from tools/wheel_env.sh (the `wheel` fixture in conftest.py)."""
import subprocess, sys, zipfile
from pathlib import Path
from conftest import newcomer_env

ROOT = Path(__file__).resolve().parents[1]

def test_wheel_contents(wheel):
    names = zipfile.ZipFile(wheel[0]).namelist()
    assert any(n.startswith('tpu_vision/') and n.endswith('.npz') for n in names), 'no sample data in the wheel'
    ep = next(n for n in names if n.endswith('.dist-info/entry_points.txt'))
    assert 'tpu-vision = tpu_vision.cli:main' in zipfile.ZipFile(wheel[0]).read(ep).decode()
    stray = [n for n in names if n.endswith('.ipynb') or n.split('/')[0] in ('tests', 'nbs', 'tools', 'bench')]
    assert not stray, f'the wheel holds files a user does not need: {stray}'
    assert {'tpu_vision/cli.py', 'tpu_vision/all.py', 'tpu_vision/_modidx.py'} <= set(names)

def test_twine_check(wheel):
    "The sdist and the wheel pass the checks PyPI makes (the README renders as the long description)"
    dists = sorted(wheel[0].parent.glob('tpu_vision-*'))
    assert len(dists) == 2, dists
    r = subprocess.run([sys.executable, '-m', 'twine', 'check', '--strict', *map(str, dists)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr

def test_cli_from_the_wheel(wheel, tmp_path):
    "`tpu-vision train` from the installed wheel, run in an empty folder with nothing of this repository on the path"
    py = wheel[1]
    env = newcomer_env(tmp_path)
    where = subprocess.run([str(py), '-c', 'import tpu_vision; print(tpu_vision.__file__)'], cwd=tmp_path, env=env,
                           capture_output=True, text=True, check=True).stdout
    assert str(py.parent.parent) in where and str(ROOT/'tpu_vision') not in where, where
    r = subprocess.run([str(py.parent/'tpu-vision'), 'train', '--epochs', '1', '--arch', 'tiny_cnn', '--out', 'run'],
                       cwd=tmp_path, env=env, capture_output=True, text=True, timeout=900)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    assert (tmp_path/'run/model.pkl').stat().st_size > 0 and 'accuracy' in r.stdout, r.stdout[-2000:]
    assert {'model.pkl.sha256', 'history.csv', 'history.png', 'run.json'} <= {f.name for f in (tmp_path/'run').iterdir()}
    v = subprocess.run([str(py.parent/'tpu-vision'), '--version'], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert v.returncode == 0 and v.stdout.split()[-1] == wheel[0].name.split('-')[1], (v.stdout, v.stderr)
