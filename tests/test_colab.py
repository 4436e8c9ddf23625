"""Every notebook starts with the same install cell, has its Colab badge and opens a TPU runtime; the install cell does
on Colab what tools/colab.py says, in each case a runtime can be in (pip and the runtime faked)."""
import json, sys, types, subprocess, importlib.util, importlib.metadata
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
import colab

@pytest.mark.parametrize('nb', colab.notebooks(), ids=lambda p: p.name)
def test_notebook_is_stamped(nb):
    d = json.loads(nb.read_text())
    assert ''.join(d['cells'][0]['source']) == colab.CELL, f'{nb.name}: first cell is not the install cell (python tools/colab.py)'
    i = next(i for i,c in enumerate(d['cells']) if c['cell_type'] == 'markdown' and ''.join(c['source']).startswith('# '))
    assert 'colab-badge' not in ''.join(d['cells'][i]['source']), f'{nb.name}: the badge is in the title cell, which nbdev drops'
    assert ''.join(d['cells'][i+1]['source']).startswith(colab.badge(nb.name)), f'{nb.name}: no Colab badge under the title'
    assert d['metadata'].get('accelerator') == 'TPU' and d['metadata']['colab']['gpuType'], nb.name

def run_cell(monkeypatch, installed, pip_ok=lambda args: True, colab_runtime=True, calls=None):
    "Execute the install cell with `installed` packages ({name: version}); returns the pip argument lists it ran"
    calls = [] if calls is None else calls
    def run(cmd, *a, **k):
        assert cmd[1:4] == ['-m', 'pip', 'install'], cmd
        calls.append(cmd[5:])
        return types.SimpleNamespace(returncode=0 if pip_ok(cmd[5:]) else 1)
    monkeypatch.setattr(subprocess, 'run', run)
    monkeypatch.setattr(importlib.util, 'find_spec', lambda n, *a: object() if n in installed else None)
    monkeypatch.setattr(importlib.metadata, 'version', lambda n: installed[n])
    if colab_runtime: monkeypatch.setitem(sys.modules, 'google.colab', types.ModuleType('google.colab'))
    else: monkeypatch.delitem(sys.modules, 'google.colab', raising=False)
    exec(colab.CELL, {})
    return calls

def test_cell_does_nothing_off_colab(monkeypatch):
    assert run_cell(monkeypatch, {'torch': '2.9.1'}, colab_runtime=False) == []

def test_cell_does_nothing_once_installed(monkeypatch):
    assert run_cell(monkeypatch, {'torch': '2.9.1', 'tpu_vision': '0.0.1'}) == []

def test_cell_keeps_runtime_torch_with_its_torch_xla(monkeypatch):
    calls = run_cell(monkeypatch, {'torch': '2.8.0+cpu', 'torch_xla': '2.8.0'})
    assert calls == [['tpu-vision[notebooks]', 'torch==2.8.0']], calls

def test_cell_adds_torch_xla_for_runtime_torch(monkeypatch):
    calls = run_cell(monkeypatch, {'torch': '2.9.0+cu126'})
    assert calls == [['torch==2.9.0', 'torch_xla[tpu]==2.9.*'], ['tpu-vision[notebooks]', 'torch==2.9.0']], calls

def test_cell_installs_pinned_pair_and_asks_for_restart(monkeypatch):
    ok = lambda args: not any(a.startswith('torch_xla') for a in args)   # no torch_xla 2.99 is published
    calls = []
    with pytest.raises(RuntimeError, match='Restart the session'):
        run_cell(monkeypatch, {'torch': '2.99.0'}, pip_ok=ok, calls=calls)
    assert calls == [['torch==2.99.0', 'torch_xla[tpu]==2.99.*'], ['tpu-vision[notebooks,xla]']], calls

def test_cell_falls_back_to_the_repository(monkeypatch):
    ok = lambda args: ' @ ' in args[0] or not args[0].startswith('tpu-vision[')   # nothing on PyPI yet
    calls = run_cell(monkeypatch, {'torch': '2.9.1', 'torch_xla': '2.9.0'}, pip_ok=ok)
    assert calls[-1][0] == 'tpu-vision[notebooks] @ git+https://github.com/tpu-vision/tpu_vision', calls

def test_cell_says_when_pip_fails(monkeypatch):
    with pytest.raises(AssertionError, match='pip could not install tpu-vision'):
        run_cell(monkeypatch, {'torch': '2.9.1', 'torch_xla': '2.9.0'}, pip_ok=lambda args: False)
