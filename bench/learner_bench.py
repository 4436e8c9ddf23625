"""Benchmark: (a) stock fastai vs (b) `learn.to_tpu()` vs (c) a hand-written torch_xla loop -- same model, data, batch size.

    PJRT_DEVICE=CPU python bench/learner_bench.py --device xla [--arch tiny|resnet18] [--size 32] [--bs 32] [--rounds 5]
    python bench/learner_bench.py --device cpu

One process, one device. Each of the three trains one epoch at a time (fastai: `fit(1, lr)`; the loop: one pass) on
the same 180 images (`--per-class 60`) and validates on 60; first one warm-up epoch each (compilation), then `--rounds` rounds in which
(a), (b) and (c) each run one epoch, in rotating order, so that a busy machine slows all three alike. Per epoch:
wall seconds (after `backend.wait()`), graph compilations and device->host transfers (tpu_vision's `counters`).
Throughput = training images / median epoch time; beside it the last epoch's validation accuracy of each. Ends with
the same as a markdown table (03_learner's, through tools/bench_cells.py). Not a test: it prints and asserts nothing.

The hand-written loop is what the torch_xla docs teach: plain tensors from the same (static-shape) batches,
`xm.optimizer_step`-equivalent step, `torch_xla.sync()` per step, validation accuracy accumulated on the device and read
once per epoch. Its optimizer is torch's AdamW with fastai's defaults (decoupled wd 0.01, eps 1e-5, betas .9/.99).
"""
import argparse, statistics, tempfile, time
from pathlib import Path
p = argparse.ArgumentParser()
p.add_argument('--size', type=int, default=32); p.add_argument('--bs', type=int, default=32)
p.add_argument('--arch', default='tiny', help='tiny (4 conv blocks), or a torchvision resnet name (minutes per compile here)')
p.add_argument('--device', default='xla', choices=['xla', 'cpu'])
p.add_argument('--rounds', type=int, default=5, help='timed epochs of each')
p.add_argument('--skip-stock', action='store_true')
p.add_argument('--per-class', type=int, default=60, help='training images per class (3 classes; a third as many for validation)')
args = p.parse_args()
from record import header; print(header(), flush=True)

import numpy as np, torch
from torch import nn
from PIL import Image
from fastai.vision.all import ImageDataLoaders, Resize, Learner, accuracy, create_vision_model, CrossEntropyLossFlat, models
from tpu_vision.all import *

def make_data(root, size=72, n=60):
    "Synthetic PNGs, 3 colour-coded classes, `n` per class to train on: with n=60, the data of bench/stock_fastai_xla.py"
    rng = np.random.default_rng(0)
    for split, n in [("train", n), ("valid", n//3)]:
        for c in range(3):
            d = root/split/f"c{c}"; d.mkdir(parents=True, exist_ok=True)
            for i in range(n):
                a = (rng.random((size, size, 3))*80).astype(np.uint8); a[..., c] += 120
                Image.fromarray(a).save(d/f"{i}.png")

be = get_backend(args.device)
def tiny_cnn(pretrained=False, **kw):
    "A small CNN (4 conv-BN-ReLU blocks): XLA on a 2-core CPU compiles a ResNet step for minutes"
    blk = lambda i,o: [nn.Conv2d(i, o, 3, stride=2, padding=1), nn.BatchNorm2d(o), nn.ReLU()]
    return nn.Sequential(*blk(3,16), *blk(16,32), *blk(32,64), *blk(64,128), nn.AdaptiveAvgPool2d(1))
arch = tiny_cnn if args.arch == 'tiny' else getattr(models, args.arch)
LR = 1e-3
def dls_(): return ImageDataLoaders.from_folder(root, train='train', valid='valid', item_tfms=Resize(args.size), bs=args.bs, num_workers=0)
def model_(): torch.manual_seed(0); return create_vision_model(arch, 3, pretrained=False)

def fastai_epoch(learn):
    def run():
        with learn.no_bar(), learn.no_logging(): learn.fit(1, LR)
        return float(learn.recorder.values[-1][-1])   # the epoch's validation accuracy
    return run

def hand_loop():
    "(c): the loop a torch_xla user writes by hand"
    dls = static_shapes(dls_()).to(be.device)
    model = model_().to(be.device)
    opt = torch.optim.AdamW(model.parameters(), lr=LR, betas=(0.9, 0.99), eps=1e-5, weight_decay=0.01)
    loss_fn = nn.CrossEntropyLoss()
    def run():
        model.train()
        for xb,yb in dls.train:
            xb,yb = xb.as_subclass(torch.Tensor), yb.as_subclass(torch.Tensor)   # plain tensors, as in a hand-written loop
            loss = loss_fn(model(xb), yb); loss.backward(); be.optimizer_step(opt); opt.zero_grad(); be.sync()
        model.eval(); correct = torch.zeros((), device=be.device)
        with torch.no_grad():
            for xb,yb in dls.valid:
                xb,yb = xb.as_subclass(torch.Tensor), yb.as_subclass(torch.Tensor)
                correct = correct + ((model(xb).argmax(1) == yb) & (yb != PAD_TARGET)).sum(); be.sync()
        return correct.item()/len(dls.valid_ds)
    return run

with tempfile.TemporaryDirectory() as tmp:
    root = Path(tmp); make_data(root, n=args.per_class)
    n_train = (len(dls_().train_ds)//args.bs)*args.bs
    runs = {}
    if not args.skip_stock:   # (a) stock fastai: model and DataLoaders moved to the device, nothing else
        runs['(a) stock fastai'] = fastai_epoch(Learner(dls_().to(be.device), model_().to(be.device), loss_func=CrossEntropyLossFlat(), metrics=accuracy))
    runs['(b) tpu_vision to_tpu()'] = fastai_epoch(Learner(dls_(), model_(), loss_func=CrossEntropyLossFlat(), metrics=accuracy).to_tpu(args.device))
    runs['(c) hand-written loop'] = hand_loop()
    times = {k: [] for k in runs}; comp = {k: [] for k in runs}; xfer = {k: [] for k in runs}; acc = {}
    def epoch(k):
        with counters() as c:
            t = time.time(); acc[k] = runs[k](); be.wait(); times[k].append(time.time()-t)
        comp[k].append(c.compiles); xfer[k].append(c.to_host)
    for k in runs: epoch(k)                                  # warm-up: compilation
    names = list(runs)
    for r in range(args.rounds):
        for k in names[r % len(names):] + names[:r % len(names)]: epoch(k)
    ips,mean_ips = {},{}
    print(f"{be.name} ({be.kind}), {args.arch} {args.size}px, bs {args.bs}, {n_train} training images/epoch; "
          f"warm-up epoch, then {args.rounds} rounds")
    for k in runs:
        ips[k],mean_ips[k] = n_train/statistics.median(times[k][1:]),n_train/statistics.mean(times[k][1:])
    print(f"\n| | epoch times (s), warm-up first | compilations per epoch | device→host per epoch | images/s, median / mean "
          f"| median / (c)'s | valid accuracy, last epoch |\n|---|---|---|---|---|---|---|")
    c_ips = ips['(c) hand-written loop']
    for k in runs:
        print(f"| {k} | {', '.join(f'{t:.2f}' for t in times[k])} | {', '.join(map(str, comp[k]))} | "
              f"{', '.join(map(str, xfer[k]))} | {ips[k]:.0f} / {mean_ips[k]:.0f} | {ips[k]/c_ips:.2f} | {acc[k]:.3f} |")
    print()
    for what,d in (('median', ips), ('mean', mean_ips)):   # the mean counts the epochs that recompiled, the median hides them
        a,b,c = (d.get(n) for n in ('(a) stock fastai', '(b) tpu_vision to_tpu()', '(c) hand-written loop'))
        print(f"ratios of {what} throughput: " + (f"(b)/(a) = {b/a:.2f}x, " if a else '') + f"(b)/(c) = {b/c:.2f}")
