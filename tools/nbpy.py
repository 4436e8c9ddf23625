#!/usr/bin/env python
"""Edit notebooks as plain text: `nb2py` writes a notebook's cells to a text file, `py2nb` writes them back.

The notebook stays the source of truth; the text file is a scratch copy for editors and reviews.
Cells start with a line `#%%` (code) or `#%% md` (markdown); the rest of the text is the cell, verbatim.
Outputs of cells whose source did not change are kept when writing back.

    python tools/nbpy.py nb2py nbs/00_device.ipynb /tmp/00_device.py
    python tools/nbpy.py py2nb /tmp/00_device.py nbs/00_device.ipynb

Then run it and keep its outputs (they are the docs): `cd nbs && nbdev-test --save 00_device.ipynb`.
"""
import json, sys
from pathlib import Path

def nb2py(nb_path, py_path):
    nb = json.loads(Path(nb_path).read_text())
    out = []
    for c in nb['cells']:
        out.append('#%% md' if c['cell_type'] == 'markdown' else '#%%')
        out.append(''.join(c['source']).rstrip('\n'))
    Path(py_path).write_text('\n'.join(out) + '\n')

def _cells(text):
    cells, cur = [], None
    for line in text.splitlines():
        if line.strip() in ('#%%', '#%% md'):
            if cur is not None: cells.append(cur)
            cur = ['markdown' if line.strip().endswith('md') else 'code', []]
        elif cur is not None: cur[1].append(line)
    if cur is not None: cells.append(cur)
    return [(t, '\n'.join(l).strip('\n')) for t, l in cells]

def py2nb(py_path, nb_path):
    import hashlib
    old, ids, meta = {}, {}, dict(kernelspec=dict(display_name='python3', language='python', name='python3'))
    if Path(nb_path).exists():
        prev = json.loads(Path(nb_path).read_text())
        meta = prev.get('metadata') or meta   # the notebook's own metadata (Colab's TPU runtime: tools/colab.py) stays
        for c in prev['cells']:
            src = ''.join(c['source'])
            if 'id' in c: ids.setdefault(src, c['id'])
            if c['cell_type'] == 'code': old[src] = c.get('outputs', [])
    cells, used = [], set()
    for t, src in _cells(Path(py_path).read_text()):
        lines = src.splitlines(keepends=True)
        cid = ids.get(src) or hashlib.sha1(src.encode()).hexdigest()[:8]
        while cid in used: cid = hashlib.sha1(cid.encode()).hexdigest()[:8]
        used.add(cid)
        if t == 'markdown': cells.append(dict(cell_type='markdown', id=cid, metadata={}, source=lines))
        else: cells.append(dict(cell_type='code', execution_count=None, id=cid, metadata={}, outputs=old.get(src, []), source=lines))
    nb = dict(cells=cells, metadata=meta, nbformat=4, nbformat_minor=5)
    Path(nb_path).write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')

if __name__ == '__main__':
    cmd, a, b = sys.argv[1:4]
    if cmd == 'nb2py': nb2py(a, b)
    elif cmd == 'py2nb': py2nb(a, b)
    else: sys.exit(f'unknown command {cmd!r}: use nb2py or py2nb')
