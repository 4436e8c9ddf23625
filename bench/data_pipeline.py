#!/usr/bin/env python
"""Images/second of the input pipeline: fastai's default `ImageDataLoaders.from_folder` vs `tpu_vision.image_dls`.

Both read the same folder, decode, resize (the same `Resize(size)` item transform), collate, copy to the device
and run the same batch transforms there (`IntToFloatTensor`, `Normalize` with ImageNet statistics); each batch
ends with `backend.sync()`, as a training step does, and the clock stops after `backend.wait()`. Runs alternate
(fastai, tpu_vision, fastai, ...) so that a busy machine slows both alike; the first epoch of each (worker
start-up, compilation) is not timed. A benchmark, not a test: it prints, it asserts nothing.

    PJRT_DEVICE=CPU python bench/data_pipeline.py --device xla        # XLA device (on the CPU here)
    python bench/data_pipeline.py --device cpu
    python bench/data_pipeline.py --folder /path/to/imagenet_style   # your own images

The default folder is made once (in `tpu_vision_home()`): 640 JPEG "photos" of 10 classes, 300-500 px on a side,
Fashion-MNIST images of the shipped sample scaled up, tinted and noised, so decoding and resizing cost what
ordinary photos cost.
"""
import argparse, os, sys, time, statistics
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from PIL import Image
from fastai.vision.all import ImageDataLoaders, Resize, Normalize, imagenet_stats, get_image_files
from tpu_vision.data import image_dls, sample_data, tpu_vision_home, atomic_dir, default_workers
from tpu_vision.device import get_backend

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
            Image.fromarray(rgb.clip(0,255).astype(np.uint8)).save(tmp/('valid' if i % 5 == 0 else 'train')/f.parent.name/f'{i:05d}.jpg', quality=90)
    return atomic_dir(dest, write)

def epoch(dl, b):
    "Seconds and images of one pass over `dl`, each batch ending a step"
    t,n = time.perf_counter(),0
    for xb,yb in dl: b.sync(); n += len(xb)
    b.wait()
    return time.perf_counter()-t,n

def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--device', default=None, help="'xla', 'cpu', 'cuda' (default: tpu_vision's choice)")
    p.add_argument('--folder', default=None, help="ImageNet-style folder (default: the generated photos; 'sample' for the 28 px sample)")
    p.add_argument('--size', type=int, default=224); p.add_argument('--bs', type=int, default=64)
    p.add_argument('--workers', type=int, default=None, help='worker processes for both (default: each library\'s own default)')
    p.add_argument('--rounds', type=int, default=6, help='timed epochs of each')
    a = p.parse_args()
    b = get_backend(a.device)
    path = sample_data() if a.folder == 'sample' else Path(a.folder) if a.folder else photo_folder()
    nw = {} if a.workers is None else {'num_workers': a.workers}
    fa = ImageDataLoaders.from_folder(path, item_tfms=Resize(a.size), batch_tfms=Normalize.from_stats(*imagenet_stats, cuda=False),
                                      bs=a.bs, device=b.device, **nw)
    tv = image_dls(path, size=a.size, bs=a.bs, item_tfms=Resize(a.size), device=b.device, verbose=False, **nw)
    tv_rrc = image_dls(path, size=a.size, bs=a.bs, device=b.device, verbose=False, **nw)
    runs = {'fastai from_folder': fa.train, 'tpu_vision image_dls': tv.train, 'tpu_vision image_dls (RandomResizedCrop)': tv_rrc.train}
    print(f"{path}: {len(fa.train_ds)} training images; {a.size} px, bs {a.bs}, device {b.device} ({b.kind}); "
          f"workers: fastai {fa.train.fake_l.num_workers}, tpu_vision {tv.train.fake_l.num_workers} (default_workers()={default_workers()}); "
          f"{os.cpu_count()} CPUs")
    for dl in runs.values(): epoch(dl, b)  # warm-up: compilation, caches
    rates = {k:[] for k in runs}
    for r in range(a.rounds):
        for k in (list(runs) if r % 2 == 0 else list(runs)[::-1]):  # alternate the order: a busy machine slows both alike
            s,n = epoch(runs[k], b); rates[k].append(n/s)
    med = {k:statistics.median(v) for k,v in rates.items()}
    for k,v in rates.items(): print(f"{k:>42}: {med[k]:7.1f} images/s  (rounds: {', '.join(f'{x:.1f}' for x in v)})")
    print(f"ratio tpu_vision / fastai (same Resize): {med['tpu_vision image_dls']/med['fastai from_folder']:.2f}x (median of {a.rounds} rounds)")

if __name__ == '__main__': main()
