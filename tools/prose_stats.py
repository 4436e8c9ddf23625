#!/usr/bin/env python
"""How the notebooks read, beside fastcore's (01_basics, 02_foundation: 19-21 words per markdown cell, 15-28 % of code
cells with a stored output):

    python tools/prose_stats.py              # per notebook: markdown cells, words per markdown cell (mean, median),
                                             # code cells, share of code cells with an output, and of the visible ones
    python tools/prose_stats.py --rev REV    # the same for the notebooks at git revision REV (e.g. before a change)

A *visible* code cell is one the docs show: not `#| hide`, not exported, not a test cell (tools/nbdev_procs.py).
"""
import json, re, statistics, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
from nbdev_procs import test_cells, md_without_directives, _src

def words(md:str) -> int:
    "Words of a markdown cell as a reader sees them: no `#|` lines, no HTML comments, a table's pipes not counted"
    md = re.sub(r'<!--.*?-->', ' ', md_without_directives(md), flags=re.S)
    return len([w for w in re.split(r'\s+', md) if w and w.strip('|-:')])

def hidden(c):
    head = '\n'.join(_src(c).splitlines()[:3]).replace('#|', '#| ').replace('#|  ', '#| ')
    return any(d in head for d in ('#| hide', '#| export', '#| exporti', '#| exports'))

def stats(cells):
    md = [words(_src(c)) for c in cells if c['cell_type'] == 'markdown' and not _src(c).startswith('#| hide')]
    code = [c for c in cells if c['cell_type'] == 'code']
    tests = {id(cells[i]) for i in test_cells(cells)}
    shown = [c for c in code if not hidden(c) and id(c) not in tests]
    pct = lambda cs: 100*sum(bool(c.get('outputs')) for c in cs)/max(1, len(cs))
    return dict(md=len(md), words=statistics.mean(md) if md else 0, median=statistics.median(md) if md else 0,
                code=len(code), out=pct(code), shown=len(shown), shown_out=pct(shown))

def notebooks(rev=None):
    if rev is None: return {p.name: json.loads(p.read_text()) for p in sorted((ROOT/'nbs').glob('*.ipynb'))}
    names = subprocess.run(['git', 'ls-tree', '--name-only', rev, 'nbs/'], cwd=ROOT, capture_output=True, text=True,
                           check=True).stdout.split()
    return {Path(n).name: json.loads(subprocess.run(['git', 'show', f'{rev}:{n}'], cwd=ROOT, capture_output=True,
            text=True, check=True).stdout) for n in names if n.endswith('.ipynb')}

def main(argv):
    rev = argv[argv.index('--rev')+1] if '--rev' in argv else None
    print(f"{'notebook':22s} {'md cells':>8s} {'words/md':>8s} {'median':>6s} {'code':>5s} {'with output':>11s} "
          f"{'visible':>7s} {'visible with output':>19s}")
    for name, nb in notebooks(rev).items():
        s = stats(nb['cells'])
        print(f"{name[:-6]:22s} {s['md']:8d} {s['words']:8.1f} {s['median']:6.0f} {s['code']:5d} {s['out']:10.0f}% "
              f"{s['shown']:7d} {s['shown_out']:18.0f}%")

if __name__ == '__main__': main(sys.argv[1:])
