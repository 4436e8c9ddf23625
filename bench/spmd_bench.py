"""Evidence for 07_parallel: the same training on 1, 2, 4 XLA:CPU devices (SPMD) and 1, 2 CPU processes (DDP, gloo).

Each configuration runs in a fresh process (a process has one SPMD mesh): a small CNN on the shipped sample (1,000 +
300 Fashion-MNIST images, 28 px), global batch 100, `fit_one_cycle(3, 3e-2)`, the same seed. Per configuration:
final accuracy, the smoothed training loss of every step, compilations and device->host transfers per epoch (XLA),
and the shape of each device's share of a batch. Prints a markdown table and one JSON line per configuration;
`--plot FILE` draws the loss curves.

    python bench/spmd_bench.py --plot /tmp/spmd_losses.png
"""
import argparse, json, os, subprocess, sys, tempfile, time
from pathlib import Path

MODEL = '''nn.Sequential(nn.Conv2d(3,8,3,2), nn.ReLU(), nn.Conv2d(8,16,3,2), nn.ReLU(), nn.AdaptiveAvgPool2d(1),
                      nn.Flatten(), nn.Linear(16,10))'''

def worker(kind, n, epochs):
    from fastai.vision.all import nn, Learner, accuracy, set_seed
    from fastai.torch_core import num_distrib, rank_distrib
    from tpu_vision.all import ddp_ctx
    from tpu_vision.test_utils import sample_dls
    set_seed(0)
    model = eval(MODEL)
    if kind == 'ddp':
        learn = Learner(sample_dls(bs=100 // max(1, num_distrib())), model, metrics=accuracy, path=tempfile.mkdtemp())
        with learn.no_bar(), learn.no_logging(), ddp_ctx(learn): learn.fit_one_cycle(epochs, 3e-2)
        if rank_distrib(): return
        counters, share = [], [(100 // max(1, num_distrib()),)] * max(1, num_distrib())
    else:
        learn = Learner(sample_dls(), model, metrics=accuracy, path=tempfile.mkdtemp())
        learn = learn.to_tpu(devices=n) if n > 1 else learn.to_tpu('xla')
        with learn.no_bar(), learn.no_logging(): learn.fit_one_cycle(epochs, 3e-2)
        counters, (_, yb), b = learn.counters, next(iter(learn.dls.train)), learn.backend   # after fit: no transfer in it
        share = b.shard_shapes(yb) if hasattr(b, 'shard_shapes') else [tuple(yb.shape)]
    print(json.dumps(dict(kind=kind, n=n, accuracy=float(learn.recorder.values[-1][2]),
                          losses=[float(l) for l in learn.recorder.losses], share=share,
                          compiles=[c['compiles'] for c in counters], to_host=[c['to_host'] for c in counters])))

def run(kind, n, epochs):
    env = {k:v for k,v in os.environ.items() if k not in ('PJRT_DEVICE', 'CPU_NUM_DEVICES')}
    me = [str(Path(__file__).resolve()), '--worker', kind, str(n), '--epochs', str(epochs)]
    if kind == 'ddp' and n > 1:
        cmd = [str(Path(sys.executable).parent/'torchrun'), '--nproc_per_node', str(n), '--master_port', '29871', *me]
    else: cmd = [sys.executable, *me]
    if kind == 'spmd': env.update(PJRT_DEVICE='CPU', CPU_NUM_DEVICES=str(n))
    t0 = time.time()
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode: sys.exit(f'{kind} {n} failed:\n{r.stderr[-3000:]}')
    res = json.loads([l for l in r.stdout.splitlines() if l.startswith('{')][-1])
    return dict(res, wall_s=round(time.time()-t0, 1))

if __name__ == '__main__':
    p = argparse.ArgumentParser()
    p.add_argument('--worker', nargs=2); p.add_argument('--epochs', type=int, default=3); p.add_argument('--plot')
    a = p.parse_args()
    from record import header; print(header(), flush=True)
    if a.worker: worker(a.worker[0], int(a.worker[1]), a.epochs); sys.exit()
    rows = [run('spmd', n, a.epochs) for n in (1, 2, 4)] + [run('ddp', n, a.epochs) for n in (1, 2)]
    print('| run | accuracy | compilations per epoch | device→host transfers per epoch | share of a batch of 100 |')
    print('|---|---|---|---|---|')
    for r in rows:
        name = f"XLA:CPU, {r['n']} device(s){' (SPMD)' if r['n'] > 1 else ''}" if r['kind'] == 'spmd' else \
               f"CPU, {r['n']} process(es){' (DDP, gloo)' if r['n'] > 1 else ''}"
        sh = ' + '.join(str(s[0]) for s in r['share'])
        print(f"| {name} | {r['accuracy']:.4f} | {r['compiles'] or '-'} | {r['to_host'] or '-'} | {sh} |")
    for r in rows: print(json.dumps(r))
    if a.plot:
        import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
        fig, ax = plt.subplots(figsize=(7, 4))
        for r in rows: ax.plot(r['losses'], label=f"{'XLA:CPU' if r['kind'] == 'spmd' else 'DDP'} ×{r['n']}", alpha=0.8)
        ax.set_xlabel('step'); ax.set_ylabel('smoothed training loss'); ax.legend(); fig.tight_layout()
        fig.savefig(a.plot, dpi=80)
