"""Benchmarks for 04_optim (not tests): each prints figures measured side by side in one run.

    python bench/optim_bench.py memory   # forward-activation peak with and without GradientCheckpointing (eager CPU)
    python bench/optim_bench.py speed    # images/s, fp32 against to_bf16(), on the XLA device and on the eager CPU
    python bench/optim_bench.py hypers   # host->device copies per epoch for each optimizer, each in a fresh process
    python bench/optim_bench.py all
    python bench/optim_bench.py memory speed --json bench/results/optim_cpu.json   # also the figures, for 04_optim

`--json PATH` writes `{'provenance': ..., 'memory': [row, ...], 'speed': [row, ...]}` (what ran);
tools/bench_cells.py renders its tables into 04_optim (`<!-- optim: PATH memory|speed -->` cells).
"""
import json, sys, subprocess, time, warnings
from functools import partial
from pathlib import Path
import torch
from torch import nn
import timm
from torch.distributed._tools.mem_tracker import MemTracker, _ModState
from fastai.data.core import DataLoaders
from fastai.learner import Learner
from fastai.losses import CrossEntropyLossFlat
from fastai.optimizer import SGD, Adam, RAdam, Lamb, Larc, RMSProp
from fastai.vision.learner import create_vision_model
import fastai.callback.schedule
from torchvision.models import resnet18
from tpu_vision.device import get_backend
from tpu_vision.learner import EpochCounters
from tpu_vision.optim import GradientCheckpointing
warnings.filterwarnings('ignore')

def synth(n, size=16, classes=3, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, classes, (n,), generator=g)
    x = torch.rand(n, 3, size, size, generator=g)*0.3
    x[torch.arange(n), y] += 0.7
    return [(x[i], y[i]) for i in range(n)]

def fit(learn, n=2, lr=1e-2):
    with learn.no_bar(), learn.no_logging(): learn.fit_one_cycle(n, lr)
    return learn

def forward_peak(model, x, y):
    "Peak bytes of activations in the forward pass, and peak bytes of everything but the weights over forward+backward"
    mt = MemTracker(); mt.track_external(model)
    with mt: nn.functional.cross_entropy(model(x), y).backward()
    cpu = torch.device('cpu')
    fw = mt.memory_tracking[model].snapshots[_ModState.PEAK_FW][-1][cpu]
    peak = mt.get_tracker_snapshot('peak')[cpu]
    name = lambda k: getattr(k, 'name', k)
    return (sum(v for k,v in fw.items() if name(k) == 'ACT'), sum(v for k,v in peak.items() if name(k) not in ('PARAM', 'BUFFER', 'Total')))

def memory(bs=16, size=64):
    print(f'## forward activations / peak beyond the weights over forward+backward, eager CPU, batch {bs} at {size} px')
    rows = []
    for name,make in [('ResNet-18 (fastai head)', lambda: create_vision_model(resnet18, 3, pretrained=False)),
                      ('ViT-S/16 (timm)', lambda: timm.create_model('vit_small_patch16_224', pretrained=False, img_size=size, num_classes=3))]:
        x,y = torch.randn(bs, 3, size, size), torch.randint(0, 3, (bs,))
        torch.manual_seed(0); (a,pa) = forward_peak(make(), x, y)
        torch.manual_seed(0); (b,pb) = forward_peak(GradientCheckpointing(make()), x, y)
        print(f'{name}: activations {a/2**20:.1f} -> {b/2**20:.1f} MiB ({b/a:.2f}); fwd+bwd peak {pa/2**20:.1f} -> {pb/2**20:.1f} MiB ({pb/pa:.2f})', flush=True)
        rows.append(dict(model=name, bs=bs, size=size, act_mib=a/2**20, act_ckpt_mib=b/2**20, peak_mib=pa/2**20, peak_ckpt_mib=pb/2**20))
    return rows

def speed_learner(device, bf16, steps, bs, size):
    torch.manual_seed(0)
    dls = DataLoaders.from_dsets(synth(bs*steps, size), synth(bs, size, seed=1), bs=bs, num_workers=0)
    learn = Learner(dls, create_vision_model(resnet18, 3, pretrained=False), loss_func=CrossEntropyLossFlat())
    learn.to_tpu(device, precision='bf16' if bf16 else 'fp32', compile=False)   # eager on 'cpu'
    fit(learn, 1)   # compiles (XLA)
    with learn.no_bar(), learn.no_logging(): learn.fit(1, 1e-3)   # and the first step of a later fit
    return learn

def speed(rounds=3, steps=8, bs=32, size=32):
    "Both precisions trained in alternation, `rounds` epochs each; the best epoch of each (the machine is shared)"
    print(f'## images/s, ResNet-18 (fastai head), batch {bs} at {size} px, {steps} training steps + 1 validation batch per epoch; '
          f'best of {rounds} epochs, fp32 and bf16 alternating')
    rows = []
    for device in ('xla', 'cpu'):
        learns,best = {p: speed_learner(device, p == 'bf16', steps, bs, size) for p in ('fp32', 'bf16')},{}
        for _ in range(rounds):
            for p,learn in learns.items():
                with learn.no_bar(), learn.no_logging(): learn.fit(1, 1e-3)
                c = learn.counters[-1]
                assert c['compiles'] == 0, c
                best[p] = max(best.get(p, 0), bs*steps/c['seconds'])
        print(f"{device}: fp32 {best['fp32']:.1f} img/s, bf16 {best['bf16']:.1f} img/s, bf16/fp32 = {best['bf16']/best['fp32']:.2f}", flush=True)
        loss = {p: float(learn.validate()[0]) for p,learn in learns.items()}   # valid loss after the same epochs
        print(f"{device}: valid loss fp32 {loss['fp32']:.4f}, bf16 {loss['bf16']:.4f}", flush=True)
        rows.append(dict(device=device, fp32=best['fp32'], bf16=best['bf16'], loss_fp32=loss['fp32'], loss_bf16=loss['bf16'],
                         bs=bs, size=size, steps=steps, rounds=rounds))
    return rows

OPTS = {'SGD': partial(SGD, mom=0.9, wd=1e-2, decouple_wd=False), 'SGDW': partial(SGD, mom=0.9, wd=1e-2),
        'Adam': partial(Adam, wd=1e-2, decouple_wd=False), 'AdamW': partial(Adam, wd=1e-2),
        'RAdam': RAdam, 'RMSProp': RMSProp, 'Lamb': Lamb, 'Larc': Larc}

def hypers1(name):
    "One optimizer, fresh process (torch_xla caches recently used scalar values on the device)"
    torch.manual_seed(0)
    model = nn.Sequential(nn.Conv2d(3,8,3,padding=1), nn.BatchNorm2d(8), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(8,3))
    dls = DataLoaders.from_dsets(synth(48), synth(16, seed=1), bs=8, num_workers=0)
    learn = fit(Learner(dls, model, loss_func=CrossEntropyLossFlat(), opt_func=OPTS[name]).to_tpu('xla'), 3)
    n_tr,n_va = len(learn.dls.train),len(learn.dls.valid)
    per = [(c['compiles'], c['to_host'], c['to_device']) for c in learn.counters]
    steps = [(d - 2*(n_tr+n_va))/n_tr for _,_,d in per[1:]]
    print(f'{name:>7}: (compilations, device->host, host->device) per epoch {per}; '
          f'host->device beyond the batches: {", ".join(f"{s:.2f}" for s in steps)} per step', flush=True)

def hypers():
    print('## fit_one_cycle(3) on the XLA device, 6 training + 2 validation batches of 8 per epoch (each batch: 2 host->device copies)')
    for name in OPTS: subprocess.run([sys.executable, __file__, 'hypers1', name], check=True)

if __name__ == '__main__':
    args = sys.argv[1:]
    out = args[args.index('--json')+1] if '--json' in args else None
    what = [a for a in args if a != out and a != '--json'] or ['all']
    if what[0] == 'hypers1': hypers1(what[1])
    else:
        from record import header, provenance; print(header(), flush=True)
        res = dict(provenance=provenance())
        if {'speed', 'all'} & set(what): get_backend('xla')   # torch_xla loaded before any backward (memory's): see 03_learner
        for f in (memory, speed, hypers):
            if f.__name__ in what or 'all' in what: t = time.time(); res[f.__name__] = f(); print(f'({time.time()-t:.0f} s)\n', flush=True)
        if out: Path(out).write_text(json.dumps({k: v for k,v in res.items() if v is not None}, indent=1) + '\n')
