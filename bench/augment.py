"""Augmentation throughput (images/s): tpu_vision's on-device transforms vs fastai's, on the XLA device and eagerly on the CPU.

    PJRT_DEVICE=CPU python bench/augment.py [--bs 64] [--size 224] [--n 5]

Pipelines (all start with fastai's `IntToFloatTensor` and end with its `Normalize.from_stats(*imagenet_stats)`):
- `aug_transforms`: `aug_transforms(size, max_rotate=20, max_zoom=1.2)`, fastai's vs tpu_vision's;
- `+ RandomErasing`: the same plus `RandomErasing(p=0.3, scale=(0.05, 0.1))` (fastai: `sl=0.05, sh=0.1`);
- `+ Cutout`: tpu_vision only (fastai 2 has no `Cutout`), the seeds' full recipe with `Cutout(n_holes=(1,3), length=(16,32))`.
Each runs `--n` batches after 2 warm-up batches (which compile on XLA) on the same uint8 batch already on the
device, side by side in one process; the counters are per timed batch.
"""
import argparse, time, torch
from fastai.vision.all import Pipeline, IntToFloatTensor, Normalize, imagenet_stats, TensorImage
import fastai.vision.augment as fa
import tpu_vision.augment as tv
from tpu_vision.device import get_backend, counters

def pipeline(lib, dev, size, erase=False, cutout=False):
    "The seeds' augmentation built from `lib` (`fastai.vision.augment` or `tpu_vision.augment`), on `dev`"
    norm = Normalize.from_stats(*imagenet_stats, cuda=False)
    norm.mean,norm.std = norm.mean.to(dev),norm.std.to(dev)
    xtra = []
    if erase: xtra.append(tv.RandomErasing(p=0.3, scale=(0.05, 0.1)) if lib is tv else fa.RandomErasing(p=0.3, sl=0.05, sh=0.1))
    if cutout: xtra.append(tv.Cutout(n_holes=(1,3), length=(16,32)))
    return Pipeline([IntToFloatTensor(), *lib.aug_transforms(size=size, max_rotate=20, max_zoom=1.2), *xtra, norm], split_idx=0)

def throughput(pipe, xb, backend, n):
    "Images per second over `n` batches after 2 warm-up batches, and the counters of the timed batches"
    for _ in range(2): y = pipe(xb); backend.sync()
    backend.wait()
    with counters() as c:
        t0 = time.perf_counter()
        for _ in range(n): y = pipe(xb); backend.sync()   # keep `y` alive: XLA only runs what is still referenced
        backend.wait()
        secs = time.perf_counter()-t0
    return n*xb.shape[0]/secs, c

def fmt(c, n):
    fb = ', '.join(f'{k[6:]}×{v/n:g}' for k,v in c.fallbacks.items()) or 'none'
    return f'{c.compiles/n:g} compiles, {c.executions/n:g} graphs, {c.to_host/n:g} to host, {c.to_device/n:g} to device, fallbacks: {fb}'

def main(bs=64, size=224, n=5, devices=('xla', 'cpu')):
    torch.manual_seed(0)
    x = TensorImage(torch.randint(0, 256, (bs, 3, size, size), dtype=torch.uint8))
    print(f"bs {bs}, {size} px, {n} timed batches after 2 warm-up; torch threads: {torch.get_num_threads()}\n")
    ratios = {}
    for name in devices:
        b = get_backend(name)
        xb = x.to(b.device)
        for lbl,kw in (('aug_transforms', {}), ('+ RandomErasing', dict(erase=True)), ('+ Cutout', dict(erase=True, cutout=True))):
            libs = (tv,) if kw.get('cutout') else (fa, tv)
            ips = {}
            for lib in libs:
                ips[lib],c = throughput(pipeline(lib, b.device, size, **kw), xb, b, n)
                who = 'fastai' if lib is fa else 'tpu_vision'
                print(f"{name:<4} {lbl:<16} {who:<11} {ips[lib]:7.1f} img/s  per batch: {fmt(c, n)}")
            if fa in ips:
                ratios[name, lbl] = ips[tv]/ips[fa]
                print(f"{name:<4} {lbl:<16} ratio tpu_vision/fastai: {ratios[name, lbl]:.2f}x")
        print()
    print('ratios (tpu_vision/fastai img/s): ' + ', '.join(f'{d} {l}: {r:.2f}x' for (d,l),r in ratios.items()))
    return ratios

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--bs', type=int, default=64); p.add_argument('--size', type=int, default=224); p.add_argument('--n', type=int, default=5)
    main(**vars(p.parse_args()))
