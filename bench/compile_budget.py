#!/usr/bin/env python
"""The start of a short job on XLA: graphs compiled and compile seconds, old code vs new code vs a hand loop (issue 28).

    PJRT_DEVICE=CPU python bench/compile_budget.py --before ../wt-base [--epochs 1] [--arch resnet18] [--rounds 1]

`--before` is another checkout of tpu_vision (e.g. `git worktree add ../wt-base <branch point>`): its `tpu_vision`
package is imported instead of this checkout's. Cases, each in a fresh process (compilations are per process), run in
turn (before, after, hand; `--rounds` times) so that the shared machine's load falls on all of them alike:
  before / after: the main job -- `image_dls(size=32, bs=64, batch_tfms=default_aug(32))` on the shipped sample
      (1 000 train / 300 valid) + `vision_learner(arch, pretrained=False, metrics=accuracy).to_tpu('xla')`, then
      `fit_one_cycle(epochs)`, `validate()`, `get_preds()`;
  hand: a hand-written torch_xla loop on the same loaders and model (`create_vision_model`), torch's AdamW with
      fastai's defaults (lr 1e-3, betas .9/.99, eps 1e-5, wd 0.01), `torch_xla.sync()` per step; per epoch a
      validation pass (accuracy read once); then one more validation pass (`validate`) and a predictions pass
      (`get_preds`: the batches' outputs concatenated and copied to the CPU). No masking: a ragged last batch is a
      graph of its own.
Per case: every graph compiled, named by the event that launched it (a callback that runs last in each event, the
same code for old and new), the total (torch_xla's `CompileTime` count and seconds, from `to_tpu`/the model's move on),
wall seconds, validation accuracy. Then compile seconds after/before. A benchmark, not a test: it asserts nothing.
"""
import argparse, json, os, subprocess, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
p = argparse.ArgumentParser()
p.add_argument('--before', help='checkout of the old tpu_vision (a git worktree)')
p.add_argument('--epochs', type=int, default=1); p.add_argument('--arch', default='resnet18')
p.add_argument('--rounds', type=int, default=1)
p.add_argument('--case', help=argparse.SUPPRESS); p.add_argument('--src', help=argparse.SUPPRESS)
args = p.parse_args()
if not args.case: from record import header; print(header(), flush=True)

def child():
    sys.path.insert(0, args.src)
    os.environ.setdefault('PJRT_DEVICE', 'CPU')
    import torch, torch_xla, torch_xla.debug.metrics as met
    from fastai.vision.all import (vision_learner, create_vision_model, accuracy, Callback, models)
    from tpu_vision.all import image_dls, default_aug, get_backend
    def compiles():
        d = met.metric_data('CompileTime')
        return (0, 0., []) if d is None else (d[0], d[1]/1e9, [v/1e9 for _,v in d[2]])
    log, n0 = [], compiles()[0]
    def mark(what):
        nonlocal n0
        n,_,secs = compiles()
        if n > n0: log.extend((what, round(s, 2)) for s in ([None]*n + secs)[-(n-n0):])
        n0 = n
    torch.manual_seed(0)
    dls = image_dls(size=32, bs=64, batch_tfms=default_aug(32), verbose=False)
    arch = getattr(models, args.arch)
    dev = get_backend('xla').device
    mark('loading data'); log.clear()
    t0, c0 = time.perf_counter(), compiles()
    if args.case == 'main':
        class Names(Callback):
            "Name the graphs compiled since the last event after the event that launched them"
            order, call = 10_000, 'to_tpu'
            def __call__(self, ev):
                if ev == 'before_fit':   # fastai's validate and get_preds fire it too: their first phase tells
                    mark(f'{self.call or "between calls"}'); self.call = '?'
                if self.call == '?' and ev in ('before_train', 'before_validate'):
                    self.call = 'fit' if ev == 'before_train' else 'get_preds' if hasattr(self.learn, 'gather_preds') else 'validate'
                what = f"{'train' if self.training else 'valid'} step {self.iter+1}/{self.n_iter}" if ev == 'after_batch' else ev
                mark(f'{self.call}: {what}')
                if ev == 'after_fit': self.call = None
        learn = vision_learner(dls, arch, pretrained=False, metrics=accuracy, cbs=Names()).to_tpu('xla')
        with learn.no_bar(): learn.fit_one_cycle(args.epochs)
        with learn.no_bar(): acc = learn.validate()[1]
        with learn.no_bar(): preds, _ = learn.get_preds()
        mark('after the last call')
    else:
        from torch import nn
        model = create_vision_model(arch, dls.c, pretrained=False).to(dev)
        opt = torch.optim.AdamW(model.parameters(), lr=1e-3, betas=(0.9, 0.99), eps=1e-5, weight_decay=0.01)
        loss_fn, plain = nn.CrossEntropyLoss(), lambda t: t.as_subclass(torch.Tensor)
        def valid(name, keep=False):
            model.eval(); correct, out = torch.zeros((), device=dev), []
            with torch.no_grad():
                for i, (xb, yb) in enumerate(dls.valid):
                    pred = model(plain(xb)); correct = correct + (pred.argmax(1) == plain(yb)).sum()
                    if keep: out.append(pred)
                    torch_xla.sync(); mark(f'{name}: valid step {i+1}/{len(dls.valid)}')
            if keep: out = torch.cat(out).cpu(); mark(f'{name}: concatenate the predictions')
            acc = correct.item()/len(dls.valid_ds); mark(f'{name}: read the accuracy')
            return acc
        for e in range(args.epochs):
            model.train()
            for i, (xb, yb) in enumerate(dls.train):
                loss_fn(model(plain(xb)), plain(yb)).backward(); opt.step(); opt.zero_grad(); torch_xla.sync()
                mark(f'fit: train step {i+1}/{len(dls.train)}')
            valid('fit')
        acc = valid('validate'); valid('get_preds', keep=True)
    wall = time.perf_counter()-t0
    c1 = compiles()
    print(json.dumps(dict(graphs=c1[0]-c0[0], compile_s=round(c1[1]-c0[1], 1), wall_s=round(wall, 1),
                          accuracy=round(float(acc), 4), log=log)))

def run(case, src):
    r = subprocess.run([sys.executable, __file__, '--case', case, '--src', str(src), '--epochs', str(args.epochs),
                        '--arch', args.arch], capture_output=True, text=True, env={**os.environ, 'PJRT_DEVICE': 'CPU'})
    lines = [l for l in r.stdout.splitlines() if l.startswith('{')]
    if not lines: sys.exit(f'{case} failed:\n{r.stdout[-3000:]}\n{r.stderr[-3000:]}')
    return json.loads(lines[-1])

if args.case: child(); sys.exit()
cases = ([('before', args.before, 'main')] if args.before else []) + [('after', ROOT, 'main'), ('hand', ROOT, 'hand')]
res = {}
for r in range(args.rounds):
    for name, src, case in cases:
        out = run(case, src); res.setdefault(name, []).append(out)
        print(f'\n{name} (round {r+1}): {out["graphs"]} graphs, {out["compile_s"]} s compiling, {out["wall_s"]} s wall, '
              f'accuracy {out["accuracy"]}', flush=True)
        for i, (what, s) in enumerate(out['log']): print(f'  {i+1:2d}. {what:<40} {s} s')
print(f'\n{args.arch}, 32 px, bs 64, fit_one_cycle({args.epochs}) + validate() + get_preds(), XLA:{os.environ.get("PJRT_DEVICE", "CPU")}:')
print('| | graphs | compile s | wall s | accuracy |\n|---|---|---|---|---|')
for name, outs in res.items():
    f = lambda k: ', '.join(str(o[k]) for o in outs)
    print(f'| {name} | {f("graphs")} | {f("compile_s")} | {f("wall_s")} | {f("accuracy")} |')
if 'before' in res:
    ratio = [a['compile_s']/b['compile_s'] for a, b in zip(res['after'], res['before'])]
    print('compile seconds after/before:', ', '.join(f'{x:.2f}' for x in ratio))
