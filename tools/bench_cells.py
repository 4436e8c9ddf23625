#!/usr/bin/env python
"""The benchmark results in the notebooks, generated from their `bench.json` files, not typed.

    python tools/bench_cells.py           # rewrite every markdown cell that starts with `<!-- bench: PATH -->`
    python tools/bench_cells.py --check   # exit 1 if one differs from what its PATH gives

A markdown cell whose first line is `<!-- bench: bench/results/bench_cpu/bench.json -->` (PATH relative to the
repository; `tpu-vision bench --out DIR` writes DIR/bench.json) holds that line, then `tpu_vision.bench.report_md` of
the JSON: the configuration and machine, the ratios in sentences, the table, its legend. nbs/09b_bench.ipynb and
nbs/index.ipynb (the README) have such cells. A cell whose first line is `<!-- benchmark: PATH -->` holds the tables of
`tpu-vision benchmark`'s `benchmark.json` (`tpu_vision.benchmark.benchmark_report`), or of each run of bench/edge.py's
`edge.json` (`{'runs': [...]}`), as nbs/06a_edge.ipynb does. After a new measurement: run this, `nbdev-clean`, and
`python tools/build_docs.py readme`.

A cell that starts with `<!-- levers: PATH -->` holds bench/levers_bench.py's table (its `--json`), and one that starts
with `<!-- optim: PATH memory -->` or `<!-- optim: PATH speed -->` a table of bench/optim_bench.py's `--json` (04_optim).

A cell that starts with `<!-- log: PATH -->` holds the first markdown table that the log at PATH printed, under the
log's first line (its command: `bench/record.py`'s `header()`, or the note that says how it ran), for the scripts
that print their table rather than write a JSON (bench/spmd_bench.py; the logs of retired probes such as
bench/compile_budget.py and bench/learner_bench.py, which `git show <commit>:bench/NAME.py` reads).

A cell that starts with `<!-- distill: PATH -->` holds bench/distill.py's report (05_distill): the student alone
against the same student distilled, per seed, the mean gain and its standard error, the tuning grid and the cost.

A cell that starts with `<!-- e2e: PATH [PATH ...] -->` holds the table of bench/e2e.py's JSON files at those PATHs (its
`--json`): one row per side of each file, in the files' order, with the command that measured each file under it.
"""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
MARK = re.compile(r'<!-- (bench|benchmark|e2e|levers|optim|log|distill): ([^>]+?) -->')

def render_benchmark(path) -> str:
    "The cell for the benchmark.json (or edge.json of runs) at `path`: its marker line, then each run's report"
    from tpu_vision.benchmark import benchmark_report
    r = json.loads((ROOT/path).read_text())
    runs = r['runs'] if 'runs' in r else [r]
    md = '\n'.join((f"**{o['name']}**: " if o.get('name') else '') + benchmark_report(o) for o in runs)
    return f'<!-- benchmark: {path} -->\n' + md.rstrip('\n')

def render(path) -> str:
    "The cell for the bench.json at `path`: its marker line, then `report_md`"
    from tpu_vision.bench import report_md
    return f'<!-- bench: {path} -->\n' + report_md(json.loads((ROOT/path).read_text())).rstrip('\n')

SIDES = {'stock': 'stock fastai', 'tpu_vision': 'tpu_vision, `image_dls` from files',
         'tpu_vision_cache': 'tpu_vision, `image_dls(cache=True)`', 'stock_bf16': 'stock fastai, `to_bf16()`'}
DEVICES = {'cpu': 'eager CPU', 'xla': 'XLA device', 'cuda': 'GPU'}

def e2e_rows(res:dict) -> list:
    "Table rows of one bench/e2e.py JSON: side, accuracy, seconds files -> export (× stock's in the same run), epochs"
    dev, rows = DEVICES.get(res['args']['device'], res['args']['device']), res['rows']
    stock = rows.get('stock', {}).get('wall_s')
    out = []
    for side, r in rows.items():
        x = f" ({r['wall_s']/stock:.2f}×)" if stock and side != 'stock' else ''
        out.append(f"| {SIDES.get(side, side)}, {dev} | {r['accuracy']:.4f} | {r['wall_s']:.0f} s{x} | "
                   f"{', '.join(f'{t:.1f}' for t in r['epoch_s'])} |")
    return out

def render_e2e(paths:str) -> str:
    "The cell for bench/e2e.py's JSON files at `paths` (space-separated): the table, then each file's command"
    res = [(p, json.loads((ROOT/p).read_text())) for p in paths.split()]
    n = {r['args']['n_valid'] for _,r in res}
    lines = [f'<!-- e2e: {paths} -->',
             f"| | accuracy ({', '.join(f'{v:,}' for v in sorted(n))} test images) | files → exported model | seconds per epoch |",
             '|---|---|---|---|']
    for _,r in res: lines += e2e_rows(r)
    lines.append('')
    for p,r in res: lines.append(f"`{r['provenance']['command']}` (`{p}`, git {r['provenance']['git'].split()[0]})  ")
    return '\n'.join(lines).rstrip()

def _said(p:dict) -> str: return f"`{p['command']}` (git {p['git'].split()[0]})"

def render_levers(path) -> str:
    "The cell for bench/levers_bench.py's JSON at `path`: its command, then one row per variant"
    r = json.loads((ROOT/path).read_text())
    rows = [f"| {o['variant']} | {o['img_s']:.1f} | ±{o['spread']:.0%} | {o['vs_default']:.2f}× | {o['valid_loss']:.3f} | "
            f"{o['accuracy']:.3f} |" for o in r['rows']]
    return '\n'.join([f'<!-- levers: {path} -->', _said(r['provenance']) + ':', '',
                      '| variant | img/s (median) | spread | × default | valid loss | accuracy |', '|---|---|---|---|---|---|', *rows])

def _memory_row(o): return (f"| {o['model']} | {o['act_mib']:.1f} MiB | {o['act_ckpt_mib']:.1f} MiB | "
                            f"{o['act_ckpt_mib']/o['act_mib']:.2f} | {o['peak_mib']:.1f} → {o['peak_ckpt_mib']:.1f} MiB |")
def _speed_row(o): return (f"| {'XLA (on the CPU)' if o['device'] == 'xla' else 'eager CPU'} | {o['fp32']:.1f} img/s | "
                           f"{o['bf16']:.1f} img/s | **{o['bf16']/o['fp32']:.2f}** | {o['loss_fp32']:.3f} / {o['loss_bf16']:.3f} |")
OPTIM = dict(memory=('| model | forward activations, plain | with `GradientCheckpointing` | ratio | peak over forward+backward, '
                     'beyond the weights |\n|---|---|---|---|---|', _memory_row),
             speed=('| device | fp32 | bf16 | bf16/fp32 | valid loss fp32 / bf16 |\n|---|---|---|---|---|', _speed_row))

def render_optim(arg) -> str:
    "The cell for table `kind` ('memory' or 'speed') of bench/optim_bench.py's JSON at `path` (`arg`: 'PATH kind')"
    path,kind = arg.split(); r = json.loads((ROOT/path).read_text())
    head,row = OPTIM[kind]
    return '\n'.join([f'<!-- optim: {arg} -->', _said(r['provenance']) + ':', '', head, *map(row, r[kind])])

def render_log(path) -> str:
    "The cell for the log at `path`: its first line (how it ran, without the leading '# '), then its first table"
    lines = (ROOT/path).read_text().splitlines()
    start = next(i for i,l in enumerate(lines) if l.startswith('|'))
    table = lines[start:next((i for i in range(start, len(lines)) if not lines[i].startswith('|')), len(lines))]
    return '\n'.join([f'<!-- log: {path} -->', f"`{lines[0].lstrip('# ')}`:", '', *table])

def _pct(v): return f"{100*v:.2f} %"
def _steady(c):
    "Compilations (summed) / device→host transfers (per epoch) of the epochs after the first"
    if len(c) < 2: return '-'
    h = sorted({o['to_host'] for o in c[1:]})
    return f"{sum(o['compiles'] for o in c[1:])} / {'-'.join(map(str, h))}"
def _med(v): v = sorted(v); return v[len(v)//2] if len(v) % 2 else (v[len(v)//2-1]+v[len(v)//2])/2

MODELS = dict(resnet18="ResNet-18 from scratch", resnet34="ResNet-34 from scratch")   # bench/distill.py
def _model(spec, n):
    "A bench/distill.py model `spec` (CNN widths, or a name) and its `n` parameters, in words"
    name = MODELS.get(spec, spec) if isinstance(spec, str) else f"CNN {'-'.join(map(str, spec))}"
    return f"{name} ({n:,} parameters)"

def render_distill(path) -> str:
    "The cell for bench/distill.py's report at `path`: the runs per seed, the gain, the tuning grid, the cost"
    r = json.loads((ROOT/path).read_text()); c,g,P = r['config'],r['gain'],r['parts']
    seeds = [o for k,p in P.items() if k.startswith('seeds_') for o in p['rows']]
    rows = {(o['arm'], o['seed']): o for o in seeds if o.get('n_train', c['n_train']) == c['n_train']}
    t = P['teacher']['teacher']
    data = (f"Fashion-MNIST, {c['n_train']:,} training images (the first of the training file), accuracy on "
            f"{c['n_valid']:,} validation images (the first of the test file)") if c.get('data', 'fashion') == 'fashion' \
        else (f"scikit-learn's handwritten digits (8×8 px, other classes), {c['n_train']:,} training images (the "
              f"first), accuracy on the {c['n_valid']:,} after them")
    seen = ("the student's images" if c.get('teacher_data', 'student') == 'student' else
            f"the {t.get('n_train', 0):,} other images of the training file, never the student's nor the validation set")
    out = [f'<!-- distill: {path} -->', f"{_said(r['provenance'])}, from the parts' commands below:", '',
           f"{data}; 28 px, no augmentation; eager CPU, float32. Student: {_model(c['student'], c['student_params'])};"
           f" teacher: {_model(c['teacher'], c['teacher_params'])}, trained on {seen} ({t['epochs']} epochs, "
           f"{_pct(t['accuracy'])} validation accuracy, trained once in {t['wall_s']:.0f} s). Both arms: "
           f"`fit_one_cycle({c['epochs']}, {c['lr']})`, batch {c['bs']}, the same seed for both (same initial "
           f"weights, same batches). Distilled: `alpha={r['chosen']['alpha']}, temperature={r['chosen']['temperature']}`"
           f", cached teacher logits.", '',
           '| seed | student alone | distilled | gain (points) | seconds alone / distilled |', '|---|---|---|---|---|']
    for s in g['seeds']:
        a,d = rows['alone', s],rows['distilled', s]
        out.append(f"| {s} | {_pct(a['accuracy'])} | {_pct(d['accuracy'])} | {100*(d['accuracy']-a['accuracy']):+.2f} | "
                   f"{a['wall_s']:.0f} / {d['wall_s']:.0f} |")
    if g['se'] is not None:
        out.append(f"| **mean gain** | | | **{100*g['mean']:+.2f} ± {100*g['se']:.2f}** "
                   f"({g['mean']/g['se'] if g['se'] else float('nan'):.1f} standard errors, {len(g['seeds'])} seeds) | |")
    less = {int(n): v for n,v in r.get('gains_by_n_train', {}).items() if int(n) != c['n_train'] and v['se'] is not None}
    if less:
        out += ['', "With less data for the student (its first images of the same training set; the same teacher, "
                "`alpha` and `temperature`, batch and lr; more epochs, about the same number of steps):", '',
                '| student\'s training images | epochs | alone (mean) | distilled (mean) | gain (points) | seeds |',
                '|---|---|---|---|---|---|']
        for n,v in sorted(less.items()):
            m = lambda arm: sum(o['accuracy'] for o in seeds if o['arm'] == arm and o.get('n_train') == n
                                and o['seed'] in v['seeds'])/len(v['seeds'])
            ep = next(o.get('epochs', c['epochs']) for o in seeds if o.get('n_train') == n)
            out.append(f"| {n:,} | {ep} | {_pct(m('alone'))} | {_pct(m('distilled'))} | {100*v['mean']:+.2f} ± "
                       f"{100*v['se']:.2f} | {len(v['seeds'])} |")
    tune = [o for k,p in P.items() if k.startswith('tune_') for o in p['rows']]
    tp = next(p for k,p in P.items() if k.startswith('tune_'))
    out += ['', f"`alpha` and `temperature` chosen on a held-out split of the training set (`tuning_split`: "
            f"{tp['n_fit']:,} images to train on, {tp['n_held_out']:,} held out, never the validation set), same "
            f"epochs, batch, lr, seed {c['tune_seed']}:", '', '| student | alpha | temperature | held-out accuracy |',
            '|---|---|---|---|']
    for o in sorted(tune, key=lambda o: (o['arm'] != 'alone', o['alpha'] or 0, o['temperature'] or 0)):
        best = (o['alpha'], o['temperature']) == (r['chosen']['alpha'], r['chosen']['temperature'])
        out.append(f"| {o['arm']}{' (chosen)' if best else ''} | {o['alpha'] if o['alpha'] is not None else '-'} | "
                   f"{o['temperature'] if o['temperature'] is not None else '-'} | {_pct(o['accuracy'])} |")
    cost = [o for k,p in P.items() if k.startswith('cost_') for o in p['rows']]
    if cost:
        out += ['', f"The cost: seconds per training epoch on {cost[0]['n_train']:,} training images, the median of the "
                f"epochs after the first ({len(cost[0]['epoch_s'])-1} each; the first compiles, and fills the cache); "
                'on the XLA device, the compilations (all steady epochs together) and device→host transfers (per '
                'epoch) of those epochs:', '', '| student | device | seconds per epoch | × alone | compilations / transfers |',
                '|---|---|---|---|---|']
        for o in cost:
            base = _med(next(b for b in cost if b['device'] == o['device'] and b['arm'] == 'alone')['epoch_s'][1:])
            out.append(f"| {o['arm']} | {DEVICES.get(o['device'], o['device'])} | {_med(o['epoch_s'][1:]):.1f} | "
                       f"{_med(o['epoch_s'][1:])/base:.2f} | {_steady(o['counters'])} |")
    out += ['', 'Commands (each writes a part of the report; wall time of the whole step):', '']
    out += [f"- `{p['provenance']['command']}`: {p['wall_s']:.0f} s" for k,p in P.items()]
    return '\n'.join(out)

RENDER = dict(bench=render, benchmark=render_benchmark, e2e=render_e2e, levers=render_levers, optim=render_optim,
              log=render_log, distill=render_distill)   # a marker's kind -> its renderer
def render_cell(kind, arg) -> str: return RENDER[kind](arg)

def update(check=False) -> list:
    "The (notebook, PATH) of every cell that differs from its render; rewritten unless `check`"
    stale = []
    for f in sorted((ROOT/'nbs').glob('*.ipynb')):
        nb = json.loads(f.read_text())
        for c in nb['cells']:
            src = ''.join(c['source'])
            if c['cell_type'] != 'markdown' or not (m := MARK.match(src)): continue
            if src == (want := render_cell(*m.groups())): continue
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
