#!/usr/bin/env python
"""The benchmark results in the notebooks, generated from their `bench.json` files, not typed.

    python tools/bench_cells.py           # rewrite every markdown cell that starts with `<!-- bench: PATH -->`
    python tools/bench_cells.py --check   # exit 1 if one differs from what its PATH gives

A markdown cell whose first line is `<!-- bench: bench/results/bench_cpu/bench.json -->` (PATH relative to the
repository; `tpu-vision bench --out DIR` writes DIR/bench.json) holds that line, then `tpu_vision.bench.report_md` of
the JSON: the configuration and machine, the ratios in sentences, the table, its legend. nbs/09b_bench.ipynb and
nbs/index.ipynb (the README) have such cells. A cell whose first line is `<!-- benchmark: PATH -->` holds the tables of
`tpu-vision benchmark`'s `benchmark.json` (`tpu_vision.benchmark.report_md`), or of each run of bench/edge.py's
`edge.json` (`{'runs': [...]}`), as nbs/06a_edge.ipynb does. After a new measurement: run this, `nbdev-clean`, and
`python tools/build_docs.py readme`.
"""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MARK = re.compile(r'<!-- (bench|benchmark): (\S+) -->')

def render_benchmark(path) -> str:
    "The cell for the benchmark.json (or edge.json of runs) at `path`: its marker line, then each run's `report_md`"
    sys.path.insert(0, str(ROOT))
    from tpu_vision.benchmark import benchmark_report as report_md
    r = json.loads((ROOT/path).read_text())
    runs = r['runs'] if 'runs' in r else [r]
    md = '\n'.join((f"**{o['name']}**: " if o.get('name') else '') + report_md(o) for o in runs)
    return f'<!-- benchmark: {path} -->\n' + md.rstrip('\n')

def render(path, kind='bench') -> str:
    "The cell for the bench.json at `path`: its marker line, then `report_md` (`kind` 'benchmark': `render_benchmark`)"
    if kind == 'benchmark': return render_benchmark(path)
    sys.path.insert(0, str(ROOT))
    from tpu_vision.bench import report_md
    return f'<!-- bench: {path} -->\n' + report_md(json.loads((ROOT/path).read_text())).rstrip('\n')

def update(check=False) -> list:
    "The (notebook, PATH) of every cell that differs from its render; rewritten unless `check`"
    stale = []
    for f in sorted((ROOT/'nbs').glob('*.ipynb')):
        nb = json.loads(f.read_text())
        for c in nb['cells']:
            src = ''.join(c['source'])
            if c['cell_type'] != 'markdown' or not (m := MARK.match(src)): continue
            if src == (want := render(m.group(2), m.group(1))): continue
            stale.append((f.name, m.group(2))); c['source'] = want.splitlines(keepends=True)
        if stale and stale[-1][0] == f.name and not check:
            f.write_text(json.dumps(nb, indent=1, ensure_ascii=False) + '\n')
    return stale

if __name__ == '__main__':
    check = '--check' in sys.argv
    stale = update(check)
    for nb,p in stale: print(f"{nb}: {p} {'differs from its cell' if check else 'rewritten'}")
    if check and stale: print('run `python tools/bench_cells.py`, `nbdev-clean`, `python tools/build_docs.py readme`')
    sys.exit(1 if check and stale else 0)
