"""Augmentation throughput (images/s): tpu_vision's on-device transforms vs fastai's, on the XLA device and eagerly on the CPU.

    PJRT_DEVICE=CPU python bench/augment.py [--bs 64] [--size 224] [--n 7]

Pipelines (all start with fastai's `IntToFloatTensor` and end with its `Normalize.from_stats(*imagenet_stats)`):
- `aug_transforms`: `aug_transforms(size, max_rotate=20, max_zoom=1.2)`, fastai's vs tpu_vision's;
- `+ RandomErasing`: the same plus `RandomErasing(p=0.3, scale=(0.05, 0.1))` (fastai: `sl=0.05, sh=0.1`);
- `+ Cutout`: tpu_vision only (fastai 2 has no `Cutout`), the seeds' full recipe with `Cutout(n_holes=(1,3), length=(16,32))`.
All run on the same uint8 batch already on the device. After 2 warm-up batches each (they compile on XLA), the
pipelines of a row take turns, one batch each, `--n` rounds, so that a busy machine slows them alike; a batch
is timed from its first op to the end of its device work (recompilations included). The counters are per batch.
"""
import argparse, torch
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

def rounds(pipes, xb, backend, n):
    "Counters (with seconds) of each of `pipes` on `xb`, `n` batches each, taking turns, after 2 warm-up batches each"
    for p in pipes.values():
        for _ in range(2): y = p(xb); backend.sync()
    backend.wait()
    res = {k: [] for k in pipes}
    for _ in range(n):
        for k,p in pipes.items():
            with counters() as c: y = p(xb)   # `counters` ends the step and waits for the device on exit
            res[k].append(c)
    return res

def summary(cs, bs):
    "Images/s and the counters per batch of the batches `cs`"
    n = len(cs)
    tot = lambda k: sum(getattr(c, k) for c in cs)/n
    fb = {}
    for c in cs:
        for k,v in c.fallbacks.items(): fb[k[6:]] = fb.get(k[6:], 0) + v/n
    fbs = ', '.join(f'{k}×{v:g}' for k,v in fb.items()) or 'none'
    return bs*n/sum(c.seconds for c in cs), (f"{tot('compiles'):g} compiles, {tot('executions'):g} graphs, "
            f"{tot('to_host'):g} to host, {tot('to_device'):g} to device, fallbacks: {fbs}")

def main(bs=64, size=224, n=7, devices=('xla', 'cpu')):
    torch.manual_seed(0)
    x = TensorImage(torch.randint(0, 256, (bs, 3, size, size), dtype=torch.uint8))
    print(f"bs {bs}, {size} px, {n} batches after 2 warm-up, taking turns; torch threads: {torch.get_num_threads()}\n")
    ratios = {}
    for name in devices:
        b = get_backend(name)
        xb = x.to(b.device)
        for lbl,kw in (('aug_transforms', {}), ('+ RandomErasing', dict(erase=True))):
            pipes = {'fastai': pipeline(fa, b.device, size, **kw), 'tpu_vision': pipeline(tv, b.device, size, **kw)}
            if kw.get('erase'): pipes['tpu_vision + Cutout'] = pipeline(tv, b.device, size, erase=True, cutout=True)
            ips = {}
            for who,cs in rounds(pipes, xb, b, n).items():
                ips[who],cnt = summary(cs, bs)
                print(f"{name:<4} {lbl:<16} {who:<20} {ips[who]:7.1f} img/s  per batch: {cnt}")
            ratios[name, lbl] = ips['tpu_vision']/ips['fastai']
            print(f"{name:<4} {lbl:<16} ratio tpu_vision/fastai: {ratios[name, lbl]:.2f}x")
        print()
    print('ratios (tpu_vision/fastai img/s): ' + ', '.join(f'{d} {l}: {r:.2f}x' for (d,l),r in ratios.items()))
    return ratios

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--bs', type=int, default=64); p.add_argument('--size', type=int, default=224); p.add_argument('--n', type=int, default=7)
    a = p.parse_args()
    from record import header; print(header(), flush=True)
    main(**vars(a))
