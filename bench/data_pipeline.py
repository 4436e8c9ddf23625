#!/usr/bin/env python
"""Images/second of the input pipeline: (a) fastai's `ImageDataLoaders.from_folder`, (b) `tpu_vision.image_dls` from
files, (c) `image_dls(cache=True)` (decoded-image cache, 01a_cache) -- iterated alone, and training a tiny CNN on XLA.

All three use the same recipe: a random resized crop to `size` (min_scale 0.35) for training, fastai
`RandomResizedCrop`'s validation resize and centre crop, ImageNet `Normalize`. (a) and (b) crop on the host per item
(`item_tfms=RandomResizedCrop`), (c) decodes every image once into a memory-mapped array at `storage_size(size)` and
crops batches on the device. Each loader epoch ends every batch with `backend.sync()`, as a training step does, and
the clock stops after `backend.wait()`. Runs alternate (a, b, c, c, b, a, ...) so that a busy machine slows all alike;
the first epoch of each (worker start-up, compilation) is not timed. Building the cache (cold, in a temporary folder:
folder scan, decoding, writing) is timed separately, with one thread and with every core. A benchmark, not a test:
it prints, it asserts nothing.

    python bench/data_pipeline.py                          # Fashion-MNIST PNGs at 32 px, photo JPEGs at 128 px
    python bench/data_pipeline.py --device xla             # iterate on the XLA device (on the CPU here) too
    python bench/data_pipeline.py --cases /my/folder:224   # your own folder(s), FOLDER:SIZE, comma-separated

Built-in folders: `fmnist` is `fashion_mnist(limit=--n)` (28 px PNGs, `n` train + `n` valid), `photos` is
`photo_folder(--n-photos)`: JPEG "photos" of 10 classes, 300-500 px on a side, made once (4/5 train, 1/5 valid).
"""
import argparse, os, sys, time, shutil, tempfile, statistics, contextlib
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from PIL import Image
import torch
from torch import nn
from fastai.vision.all import (ImageDataLoaders, RandomResizedCrop, Normalize, imagenet_stats, get_image_files, Learner,
                               Callback, CrossEntropyLossFlat, CancelValidException)
from tpu_vision.data import image_dls, sample_data, fashion_mnist, tpu_vision_home, atomic_dir, default_workers
from tpu_vision.cache import cached_dls, storage_size
from tpu_vision.device import get_backend
import tpu_vision.learner  # noqa: F401  (`Learner.to_tpu`)

MIN_SCALE = 0.35

def photo_folder(n=640, seed=0):
    "A folder `train/<class>/*.jpg`, `valid/<class>/*.jpg` of `n` photo-sized JPEGs, made once"
    dest = tpu_vision_home()/f'bench_photos_{n}'
    if (dest/'train').is_dir(): return dest
    src,rng = sample_data(),np.random.default_rng(seed)
    fns = sorted(get_image_files(src/'train'))
    def write(tmp):
        for i in range(n):
            f = fns[i % len(fns)]
            w,h = (int(v) for v in rng.integers(300, 501, 2))
            a = np.asarray(Image.open(f).convert('L').resize((w,h), Image.BICUBIC), dtype=np.float32)
            rgb = a[...,None] * rng.uniform(0.5, 1, 3) + rng.normal(0, 12, (h,w,3)) + rng.uniform(0, 60, 3)
            for s in ('train','valid'): (tmp/s/f.parent.name).mkdir(parents=True, exist_ok=True)
            split = 'valid' if i % 5 == 0 else 'train'
            Image.fromarray(rgb.clip(0,255).astype(np.uint8)).save(tmp/split/f.parent.name/f'{i:05d}.jpg', quality=90)
    return atomic_dir(dest, write)

def folder(name, a):
    if name == 'fmnist': return fashion_mnist(limit=a.n)
    if name == 'photos': return photo_folder(a.n_photos)
    return Path(name)

def epoch(dl, b):
    "Seconds and images of one pass over `dl`, each batch ending a step"
    t,n = time.perf_counter(),0
    for xb,yb in dl: b.sync(); n += len(xb)
    b.wait()
    return time.perf_counter()-t,n

def gathers(dl):
    "Seconds and images of one pass over `dl`'s batches as its host makes them, before the device's batch transforms"
    t,n = time.perf_counter(),0
    for xb,yb in dl.create_batches(dl.get_idxs()): n += len(xb)
    return time.perf_counter()-t,n

def tiny(c):
    return nn.Sequential(nn.Conv2d(3,16,3,stride=2,padding=1), nn.BatchNorm2d(16), nn.ReLU(),
                         nn.Conv2d(16,32,3,stride=2,padding=1), nn.BatchNorm2d(32), nn.ReLU(),
                         nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(32, c))

class TrainClock(Callback):
    "Seconds of each training phase, device work included; validation is skipped"
    order = 100
    def before_fit(self): self.times = []
    def before_train(self): self.t = time.perf_counter()
    def after_train(self): self.learn.backend.wait(); self.times.append(time.perf_counter()-self.t)
    def before_validate(self): raise CancelValidException()

def build_time(path, size, bs, threads):
    "Seconds to build the cache from scratch (scan included) with `threads` decoding threads, and its size on disk"
    d = Path(tempfile.mkdtemp(prefix='tpu_vision_bench_cache'))
    try:
        t = time.perf_counter()
        dls = cached_dls(path, size=size, bs=bs, device='cpu', num_workers=threads, cache_dir=d, verbose=False,
                         min_scale=MIN_SCALE)
        s = time.perf_counter()-t
        c = dls.train.cache
        return s,len(c),sum(f.stat().st_size for f in c.path.iterdir())
    finally: shutil.rmtree(d, ignore_errors=True)

@contextlib.contextmanager
def home(d):
    "`tpu_vision_home()` is `d` inside (where `image_dls(cache=True)` puts its cache)"
    old,os.environ['TPU_VISION_HOME'] = os.environ.get('TPU_VISION_HOME'),str(d)
    try: yield
    finally:
        if old is None: os.environ.pop('TPU_VISION_HOME')
        else: os.environ['TPU_VISION_HOME'] = old

def train_rate(dls, epochs):
    "Median training images/s of a tiny CNN on XLA over `epochs` epochs, after one warm-up epoch"
    torch.manual_seed(0)
    learn = Learner(dls, tiny(dls.c), loss_func=CrossEntropyLossFlat(), cbs=TrainClock()).to_tpu('xla')
    with learn.no_bar(), learn.no_logging(): learn.fit(1 + epochs, 1e-3)
    n = len(learn.dls.train)*learn.dls.train.bs
    return statistics.median(n/t for t in learn.train_clock.times[1:])

def bench_case(name, size, a, b):
    path = folder(name, a)
    rrc = lambda: RandomResizedCrop(size, min_scale=MIN_SCALE)
    cores = len(os.sched_getaffinity(0))
    builds = {t: build_time(path, size, a.bs, t) for t in sorted({1, cores})}
    mk = {'(a) fastai from_folder': lambda dev: ImageDataLoaders.from_folder(path, item_tfms=rrc(), bs=a.bs, device=dev,
              batch_tfms=Normalize.from_stats(*imagenet_stats, cuda=False)),
          '(b) image_dls, files': lambda dev: image_dls(path, size=size, bs=a.bs, item_tfms=rrc(), device=dev,
                                                        verbose=False),
          '(c) image_dls, cache': lambda dev: image_dls(path, size=size, bs=a.bs, device=dev, verbose=False,
                                                        cache=True)}
    cdir = Path(tempfile.mkdtemp(prefix='tpu_vision_bench_cache'))
    try:
        with home(cdir): runs = {k: f(b.device).train for k,f in mk.items()}   # (c)'s cache built here, not timed
        nw = {k: dl.fake_l.num_workers for k,dl in runs.items()}
        for dl in runs.values(): epoch(dl, b)  # warm-up: workers, compilation, page cache
        rates,host = {k:[] for k in runs},[]
        for r in range(a.rounds):
            for k in (list(runs) if r % 2 == 0 else list(runs)[::-1]):
                s,n = epoch(runs[k], b); rates[k].append(n/s)
            s,n = gathers(runs['(c) image_dls, cache']); host.append(n/s)
        train = {}
        if not a.no_train:
            for k,f in mk.items():
                with home(cdir): dls = f('cpu')
                train[k] = train_rate(dls, a.train_epochs)
    finally: shutil.rmtree(cdir, ignore_errors=True)
    med = {k: statistics.median(v) for k,v in rates.items()}
    n_train = len(runs['(c) image_dls, cache'].dataset)
    print(f"\n{name} ({path}): {n_train} training images, {size} px (stored at {storage_size(size)} px), bs {a.bs}; "
          f"loader device {b.device} ({b.kind}); workers: " + ', '.join(f'{k[:3]} {v}' for k,v in nw.items()) +
          f"; {os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.1f}, torch threads {torch.get_num_threads()}")
    print(f"| {size} px, {name} | loader images/s (median of {a.rounds}) | vs (a) |" +
          (" training images/s, tiny CNN on XLA | vs (a) |" if train else ''))
    print('|---|---|---|' + ('---|---|' if train else ''))
    for k in runs:
        row = f"| {k} | {med[k]:,.0f} | {med[k]/med['(a) fastai from_folder']:.1f}× |"
        if train: row += f" {train[k]:,.0f} | {train[k]/train['(a) fastai from_folder']:.1f}× |"
        print(row)
    h = statistics.median(host)
    print(f"| (c), its host part alone (the gathers; the batch transforms left to an accelerator) | "
          f"{h:,.0f} | {h/med['(a) fastai from_folder']:.0f}× |" + (' | |'*bool(train)))
    for t,(s,n,nbytes) in builds.items():
        print(f"building the cache, {t} thread{'s'*(t>1)}: {s:.1f} s for {n:,} images ({n/s:,.0f} images/s, scan "
              f"included); {nbytes/2**20:,.1f} MiB on disk = {nbytes/n*1e4/2**20:,.0f} MiB per 10,000 images")

def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--cases', default='fmnist:32,photos:128',
                   help="FOLDER:SIZE,... (FOLDER: 'fmnist', 'photos' or a path)")
    p.add_argument('--n', type=int, default=2000, help='Fashion-MNIST images per split (fmnist)')
    p.add_argument('--n-photos', type=int, default=1000, help='photos in all (photos)')
    p.add_argument('--device', default='cpu', help="where the loaders put their batches: 'cpu', 'xla', 'cuda'")
    p.add_argument('--bs', type=int, default=64)
    p.add_argument('--rounds', type=int, default=3, help='timed epochs of each loader')
    p.add_argument('--train-epochs', type=int, default=2, help='timed training epochs on XLA, after one warm-up epoch')
    p.add_argument('--no-train', action='store_true', help='skip the training throughput on XLA')
    p.add_argument('--threads', type=int, default=1,
                   help="torch's intra-op threads in this process (0: torch's default); on a small shared machine two "
                        "OpenMP threads make every tensor op wait for a second free core")
    a = p.parse_args()
    from record import header; print(header(), flush=True)
    if a.threads: torch.set_num_threads(a.threads)
    b = get_backend(a.device)
    print(f"python bench/data_pipeline.py {' '.join(sys.argv[1:])}".strip())
    for case in a.cases.split(','):
        name,size = case.rsplit(':', 1)
        bench_case(name, int(size), a, b)

if __name__ == '__main__': main()
