#!/usr/bin/env python
"""The first cell of every notebook, its "Open in Colab" badge and the metadata that opens a TPU runtime.

    python tools/colab.py          # write them into every notebook of nbs/ (idempotent)
    python tools/colab.py --check  # exit 1 if a notebook differs (tests/test_colab.py runs the same check)

`CELL` is the one install cell all notebooks share. On Colab it installs tpu_vision with what the notebooks import
(the `notebooks` extra), keeping the runtime's torch when a torch_xla is published for it and otherwise installing the
tested pair (torch 2.9 + torch_xla 2.9), after which the session must restart. Before tpu-vision is on PyPI it installs
from the repository. Anywhere else it does nothing: there you `pip install "tpu-vision[notebooks]"` yourself.
"""
import hashlib, json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
REPO = 'tpu-vision/tpu_vision'

CELL = '''#| hide
# Colab: installs tpu_vision, keeping the runtime's torch if torch_xla exists for it, else torch 2.9 + torch_xla 2.9
# (then asks for a restart). Elsewhere it does nothing: `pip install "tpu-vision[notebooks]"` (README, Install).
import sys, subprocess, importlib.util as iu, importlib.metadata as im
_GIT = 'git+https://github.com/REPO'   # before the first PyPI release
def _pip(*a): return subprocess.run([sys.executable, '-m', 'pip', 'install', '-q', *a]).returncode == 0
def _tv(x, *a): return _pip(f'tpu-vision[{x}]', *a) or _pip(f'tpu-vision[{x}] @ {_GIT}', *a)
if 'google.colab' in sys.modules and not iu.find_spec('tpu_vision'):
    tv = im.version('torch').split('+')[0]; xy = '.'.join(tv.split('.')[:2])
    if iu.find_spec('torch_xla') or _pip(f'torch=={tv}', f'torch_xla[tpu]=={xy}.*'):
        assert _tv('notebooks', f'torch=={tv}'), 'pip could not install tpu-vision: see its output above'
    else:
        assert _tv('notebooks,xla'), 'pip could not install tpu-vision: see its output above'
        raise RuntimeError(f'torch {tv} has no torch_xla: installed torch 2.9 + torch_xla 2.9. '
                           'Restart the session (Runtime > Restart session), then run all cells again.')'''.replace('REPO', REPO)

META = {'accelerator': 'TPU', 'colab': {'provenance': [], 'gpuType': 'V5E1'}}

def badge(nb_name):
    "Markdown for the 'Open in Colab' badge of `nbs/nb_name`"
    return (f'[![Open In Colab](https://colab.research.google.com/assets/colab-badge.svg)]'
            f'(https://colab.research.google.com/github/{REPO}/blob/main/nbs/{nb_name})')

def _src(c): return ''.join(c['source'])
def _is_install(c): return c['cell_type'] == 'code' and _src(c).startswith('#| hide\n# ') and 'google.colab' in _src(c)

def stamp(nb, name):
    "`nb` with the install cell first, the badge in its own cell under the title (nbdev drops the title cell) and TPU metadata"
    cells = nb['cells']
    cell = {'cell_type': 'code', 'execution_count': None, 'metadata': {}, 'outputs': [],
            'source': CELL.splitlines(keepends=True)}
    if cells and _is_install(cells[0]): cell = {**cells[0], 'source': cell['source']}; cells[0] = cell
    else: cells.insert(0, cell)
    i = next(i for i,c in enumerate(cells) if c['cell_type'] == 'markdown' and re.match(r'#\s', _src(c)))
    src = _src(cells[i])
    m = re.match(r'(#[^\n]*\n(?:\n>[^\n]*\n?)?)', src + '\n')
    head, rest = src[:m.end()].rstrip('\n'), src[m.end():].strip('\n')   # nbdev makes the title cell the front matter
    if rest or 'colab-badge.svg' in src: cells[i]['source'] = head.splitlines(keepends=True)
    nxt = cells[i+1] if i + 1 < len(cells) else None
    if not (nxt and nxt['cell_type'] == 'markdown' and _src(nxt).startswith(badge(name))):
        rest = re.sub(r'\[!\[Open In Colab\]\([^)]*\)\]\([^)]*\)\s*', '', rest).strip('\n')
        cid = hashlib.sha1(f'{name} badge'.encode()).hexdigest()[:8]   # nbformat 4.5 cells have ids (nbdev-clean adds one)
        cells.insert(i + 1, {'cell_type': 'markdown', 'id': cid, 'metadata': {},
                             'source': (badge(name) + ('\n\n' + rest if rest else '')).splitlines(keepends=True)})
    nb['metadata'].update(META)
    return nb

def notebooks(): return sorted((ROOT/'nbs').glob('*.ipynb'))

def main(check=False):
    bad = []
    for f in notebooks():
        old = f.read_text()
        new = json.dumps(stamp(json.loads(old), f.name), indent=1, ensure_ascii=False, sort_keys=True) + '\n'   # nbdev-clean's order
        if json.loads(new) != json.loads(old):
            bad.append(f.name)
            if not check: f.write_text(new)
    if check and bad: sys.exit(f'tools/colab.py: not stamped: {", ".join(bad)}; run `python tools/colab.py`')
    return bad

if __name__ == '__main__': print(main(check='--check' in sys.argv[1:]) or 'all notebooks stamped')
