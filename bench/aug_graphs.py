"""Compilations per batch of the seeds' augmentation in a stock fastai `DataBlock` iterated on XLA (issue 26).

    PJRT_DEVICE=CPU python bench/aug_graphs.py [--batches 80] [--size 48]

A folder of photo-like PNGs of assorted sizes and modes (97_test_utils's `make_folder(mixed=True)`), `Resize(size+16)`,
`batch_tfms`: `aug_transforms(size, max_rotate=20, max_zoom=1.2)`, `RandomErasing(p=0.3, scale=(0.05, 0.1))`,
`Cutout(n_holes=(1,3), length=(16,32))`, `Normalize`; 8 images a batch, `counters` around each `next`. Three ways:
- `stock`: fastai's `TfmdDL` as `dataloaders(device=xla)` makes it;
- `stock, gc.collect() first`: the same, with Python's cycle collector run before each batch;
- `tpu_dl`: the same loader through 01_data's `tpu_dl` (what `to_tpu()` does to a Learner's loaders).
Each way runs in a process of its own (a graph compiled by one would be reused by the next). Prints the compilations of
each batch, and the CPU fallbacks if any. Which batches of `stock` compile depends on when
the cycle collector runs, so that list changes from run to run; the two others do not.
"""
import argparse, gc, os, subprocess, sys, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from fastai.vision.all import (DataBlock, ImageBlock, CategoryBlock, GrandparentSplitter, get_image_files, parent_label,
                               Resize, Normalize, imagenet_stats)
from tpu_vision.device import get_backend, counters
from tpu_vision.augment import aug_transforms, RandomErasing, Cutout
from tpu_vision.data import tpu_dl
from tpu_vision.test_utils import make_folder

p = argparse.ArgumentParser()
p.add_argument('--batches', type=int, default=80); p.add_argument('--size', type=int, default=48)
WAYS = {'stock': 'stock', 'collect': 'stock, gc.collect() first', 'tpu_dl': 'tpu_dl'}
p.add_argument('--way', choices=list(WAYS), default=None, help='one of them in this process (default: each in its own)')
args = p.parse_args()
from record import header; print(header(), flush=True)
if args.way is None:
    for w in WAYS: subprocess.run([sys.executable, __file__, '--way', w, '--batches', str(args.batches),
                                   '--size', str(args.size)], check=True)
    sys.exit()
dev = get_backend('xla').device
path = make_folder(n_train=args.batches*4, n_valid=4, classes=2, mixed=True, root=tempfile.mkdtemp())

def loader():
    tfms = [*aug_transforms(size=args.size, max_rotate=20, max_zoom=1.2), RandomErasing(p=0.3, scale=(0.05, 0.1)),
            Cutout(n_holes=(1,3), length=(16,32)), Normalize.from_stats(*imagenet_stats)]
    return DataBlock((ImageBlock, CategoryBlock), get_items=get_image_files, splitter=GrandparentSplitter(),
                     get_y=parent_label, item_tfms=Resize(args.size+16),
                     batch_tfms=tfms).dataloaders(path, bs=8, num_workers=0, device=dev).train

def per_batch(dl, collect=False):
    res,fbs,it = [],{},iter(dl)
    while len(res) < args.batches:
        if collect: gc.collect()
        with counters() as c:
            try: next(it)
            except StopIteration: it = iter(dl); continue
        res.append(c.compiles)
        for k,v in c.fallbacks.items(): fbs[k] = fbs.get(k, 0) + v
    return res,fbs

dl = tpu_dl(loader(), drop_last=True) if args.way == 'tpu_dl' else loader()
res,fbs = per_batch(dl, collect=args.way == 'collect')
print(f'{WAYS[args.way]}: {sum(res[2:])} compilations after the second batch; per batch {res}; '
      f'CPU fallbacks {fbs or "none"}', flush=True)
