"""Benchmark: stock fastai vs `learn.to_tpu()` vs a hand-written torch_xla loop, same model, data, batch size.

    PJRT_DEVICE=CPU python bench/learner_bench.py [--epochs 3] [--size 64] [--bs 32] [--arch resnet18|tiny] [--device xla|cpu] [--stock-epochs 2]

One process, one device. Per epoch: wall seconds, graph compilations and device->host transfers (tpu_vision's
`counters`); then the throughput ratios over the epochs after the first (warm-up). Not a test: numbers depend on
the machine; run (a), (b) and (c) side by side and compare ratios.
"""
import argparse, os, sys, tempfile, time
from pathlib import Path
p = argparse.ArgumentParser()
p.add_argument('--epochs', type=int, default=3); p.add_argument('--size', type=int, default=64)
p.add_argument('--bs', type=int, default=32); p.add_argument('--arch', default='resnet18', help='a torchvision resnet name, or tiny')
p.add_argument('--device', default='xla', choices=['xla', 'cpu']); p.add_argument('--skip-stock', action='store_true')
p.add_argument('--stock-epochs', type=int, default=None, help='epochs for (a) (default: --epochs); on XLA each (a) epoch recompiles, so 2 = warm-up + 1 is enough')
args = p.parse_args()

import numpy as np, torch
from PIL import Image
from fastai.vision.all import (ImageDataLoaders, Resize, Learner, accuracy, create_vision_model, CrossEntropyLossFlat,
                               Adam, defaults, models)
from tpu_vision.all import *
from tpu_vision.learner import EpochCounters

def make_data(root, size=72):
    "240 synthetic PNGs, 3 colour-coded classes: the same data as ../shared/bench/stock_fastai_xla.py"
    rng = np.random.default_rng(0)
    for split, n in [("train", 60), ("valid", 20)]:
        for c in range(3):
            d = root/split/f"c{c}"; d.mkdir(parents=True, exist_ok=True)
            for i in range(n):
                a = (rng.random((size, size, 3))*80).astype(np.uint8); a[..., c] += 120
                Image.fromarray(a).save(d/f"{i}.png")

be = get_backend(args.device)
def tiny_cnn(pretrained=False, **kw):
    "A small CNN (4 conv-BN-ReLU blocks): XLA on a 2-core CPU compiles a ResNet step for minutes"
    from torch import nn
    blk = lambda i,o: [nn.Conv2d(i, o, 3, stride=2, padding=1), nn.BatchNorm2d(o), nn.ReLU()]
    return nn.Sequential(*blk(3,16), *blk(16,32), *blk(32,64), *blk(64,128), nn.AdaptiveAvgPool2d(1))
arch = tiny_cnn if args.arch == 'tiny' else getattr(models, args.arch)
def dls_(): return ImageDataLoaders.from_folder(root, train='train', valid='valid', item_tfms=Resize(args.size), bs=args.bs, num_workers=0)
def model_(): torch.manual_seed(0); return create_vision_model(arch, 3, pretrained=False)
def report(name, times, comp, xfer, n_img):
    steady = times[1:] or times
    ips = n_img/np.mean(steady)
    print(f"{name:28s} epochs(s) {' '.join(f'{t:6.1f}' for t in times)} | compiles/epoch {comp} | d->h/epoch {xfer} | {ips:7.1f} img/s after warm-up", flush=True)
    return ips

res = {}
with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp); make_data(root)
    n_train = (len(dls_().train_ds)//args.bs)*args.bs
    # (a) stock fastai, model and DataLoaders on the device
    if not args.skip_stock:
        learn = Learner(dls_().to(be.device), model_().to(be.device), loss_func=CrossEntropyLossFlat(), metrics=accuracy, cbs=EpochCounters())
        ts = []
        learn.add_cb(type('T', (EpochCounters,), {'order': 99, 'before_fit': lambda s: None, 'before_epoch': lambda s: setattr(s, 't0', time.time()),
                                                  'after_epoch': lambda s: (be.wait(), ts.append(time.time()-s.t0))})())
        with learn.no_bar(), learn.no_logging(): learn.fit_one_cycle(args.stock_epochs or args.epochs, 1e-3)
        res['a'] = report('(a) stock fastai', ts, [c['compiles'] for c in learn.counters], [c['to_host'] for c in learn.counters], n_train)
    # (b) tpu_vision
    learn = Learner(dls_(), model_(), loss_func=CrossEntropyLossFlat(), metrics=accuracy).to_tpu(args.device)
    ts = []
    learn.add_cb(type('T', (EpochCounters,), {'order': 99, 'before_fit': lambda s: None, 'before_epoch': lambda s: setattr(s, 't0', time.time()),
                                              'after_epoch': lambda s: (be.wait(), ts.append(time.time()-s.t0))})())
    with learn.no_bar(), learn.no_logging(): learn.fit_one_cycle(args.epochs, 1e-3)
    res['b'] = report('(b) tpu_vision to_tpu()', ts, [c['compiles'] for c in learn.counters], [c['to_host'] for c in learn.counters], n_train)
    # (c) hand-written loop: same model, same batches (fastai's DataLoaders, static shapes), AdamW + OneCycleLR, sync per step
    dls = static_shapes(dls_()).to(be.device)
    model = model_().to(be.device)
    opt = torch.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=1e-3, total_steps=args.epochs*len(dls.train))
    loss_fn = torch.nn.CrossEntropyLoss()
    ts,comp,xfer = [],[],[]
    for e in range(args.epochs):
        with counters() as c:
            t = time.time(); model.train()
            for xb,yb in dls.train:
                xb,yb = xb.as_subclass(torch.Tensor), yb.as_subclass(torch.Tensor)   # plain tensors, as in a hand-written loop
                loss = loss_fn(model(xb), yb); loss.backward(); be.optimizer_step(opt); opt.zero_grad(); sched.step(); be.sync()
            model.eval(); correct = torch.zeros((), device=be.device); tot = 0
            with torch.no_grad():
                for xb,yb in dls.valid:
                    xb,yb = xb.as_subclass(torch.Tensor), yb.as_subclass(torch.Tensor)
                    m = yb != PAD_TARGET; correct = correct + ((model(xb).argmax(1) == yb) & m).sum(); be.sync()
            acc = correct.item()/len(dls.valid_ds); be.wait(); ts.append(time.time()-t)
        comp.append(c.compiles); xfer.append(c.to_host)
    res['c'] = report('(c) hand-written loop', ts, comp, xfer, n_train)
print(f"\nratios on {be.name} ({be.kind}), {args.arch} {args.size}px bs {args.bs}: "
      + (f"(b)/(a) = {res['b']/res['a']:.2f}x, " if 'a' in res else '') + f"(b)/(c) = {res['b']/res['c']:.2f}")
