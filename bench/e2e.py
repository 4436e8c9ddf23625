#!/usr/bin/env python
"""End to end, side by side in one run: stock fastai vs tpu_vision, from image files on disk to an exported model.

    python bench/e2e.py --device cpu                       # case (a): eager CPU, 10 000-image Fashion-MNIST subset
    PJRT_DEVICE=CPU python bench/e2e.py --device xla --arch tiny --n-train 2000 --n-valid 500 --size 28 --epochs 3
                                                           # case (b): the XLA device (on the CPU here), a small model
    python bench/e2e.py --device cuda --n-train 60000 --n-valid 10000 --epochs 5 --bs 256   # case (c): a GPU
    python bench/e2e.py --device cpu --data digits --n-train 1197 --n-valid 600 --size 32   # a folder of other classes
                                                           # and other sizes (scikit-learn's digits as 24-48 px PNGs)

Both sides get the same folder of PNG files (Fashion-MNIST, written once, outside the clock), the same architecture,
epochs, batch size, image size, learning rate and seed. Each side's clock runs from "files on disk" to "model exported":
  stock:      `ImageDataLoaders.from_folder(item_tfms=Resize(size), batch_tfms=aug_transforms())` + `vision_learner` +
              `fit_one_cycle` + `learn.export` -- the fastai tutorial recipe, models and batches on `--device`;
  stock_bf16: the same with `learn.to_bf16()`, fastai's `MixedPrecision` (it autocasts on CUDA only, so `--device cuda`
              only): the GPU's other stock peer (`--order stock,stock_bf16,...`);
  tpu_vision: the main job's recipe, 03c_recipe's `main_learner` as `tpu-vision train` and `tune` build it (`image_dls` +
              `default_aug(size)` + label smoothing 0.1 + `vision_learner`) + `to_tpu` (its default precision) +
              `fit_one_cycle` + `to_cpu` + atomic `export`;
  tpu_vision_cache: the same with `image_dls(cache=True)` (`tpu-vision train --cache`): every image decoded once into
              a memory-mapped array, batches sliced from it (no worker processes); the cache's build is inside the clock.
`--ours-epochs N` gives the tpu_vision sides N epochs instead (time to stock's accuracy: fewer epochs, same schedule).
`--order` sets who goes first (the machine warms up; alternate it between runs). Prints one row per side: final accuracy
(the whole validation set), wall seconds end to end, seconds per epoch, and the ratios. A benchmark, not a test.
"""
import argparse, json, os, sys, time, tempfile
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tpu_vision.recipe import RECIPE, EPOCHS, main_learner   # the main job's defaults and Learner (no torch yet)

p = argparse.ArgumentParser()
p.add_argument('--device', default='cpu', choices=['cpu', 'xla', 'cuda'])
p.add_argument('--arch', default=RECIPE['arch'], help="a torchvision resnet name, or 'tiny' (4 conv blocks: XLA compiles it fast)")
p.add_argument('--n-train', type=int, default=10000); p.add_argument('--n-valid', type=int, default=2000)
p.add_argument('--epochs', type=int, default=EPOCHS); p.add_argument('--bs', type=int, default=RECIPE['bs'])
p.add_argument('--size', type=int, default=32); p.add_argument('--lr', type=float, default=RECIPE['lr'])
p.add_argument('--seed', type=int, default=0)
p.add_argument('--ours-epochs', type=int, default=None,
               help="the tpu_vision sides' epochs (default: --epochs): time to stock's accuracy, with fewer epochs")
p.add_argument('--label-smoothing', type=float, default=RECIPE['label_smoothing'],
               help="the tpu_vision sides' loss `eps` (main_learner's label_smoothing; 0: cross-entropy as stock's)")
p.add_argument('--precision', default='auto', choices=['auto', 'fp32', 'bf16', 'fp16'],
               help="the tpu_vision sides' `to_tpu(precision=)` (auto: the backend's; bf16 on a CPU with native bf16)")
p.add_argument('--order', default='stock,tpu_vision,tpu_vision_cache', help='comma-separated sides, run in this order')
p.add_argument('--workers', type=int, default=None, help='DataLoader workers for both sides (default: each its own)')
p.add_argument('--json', default=None, help='also write the results to this JSON file')
p.add_argument('--data', default='fashion', choices=['fashion', 'digits'],
               help="Fashion-MNIST's PNGs (--n-train/--n-valid), or scikit-learn's 1,797 handwritten digits as PNGs of "
                    "24-48 px (other classes, other sizes: 1,197 to train, 600 to validate)")
args = p.parse_args()
if 'stock_bf16' in args.order.split(',') and args.device != 'cuda':
    p.error(f"--order stock_bf16: fastai's to_bf16() autocasts on CUDA only, not with --device {args.device}")
from record import header, provenance; print(header(), flush=True)
if args.device == 'xla': os.environ.setdefault('PJRT_DEVICE', 'CPU')

import numpy as np, torch
from torch import nn
from fastai.vision.all import (ImageDataLoaders, Resize, accuracy, vision_learner, models, Callback,
                               aug_transforms as fastai_aug_transforms)
from tpu_vision.data import FASHION_CLASSES, FASHION_FILES, fashion_mnist_idx, read_idx, write_image_folder, tpu_vision_home
from tpu_vision.device import get_backend
import tpu_vision.learner, tpu_vision.optim   # to_tpu, precision
from tpu_vision.export import export_learner   # atomic, portable, recorded

def folder(n_train, n_valid):
    "Fashion-MNIST's first `n_train` training and `n_valid` test images as PNG folders, written once"
    dest = tpu_vision_home()/f'e2e_fashion_{n_train}_{n_valid}'
    if (dest/'.tpu_vision').exists(): return dest
    src = fashion_mnist_idx()
    splits = {s:(read_idx(src/xf)[:n], read_idx(src/yf)[:n]) for (s,(xf,yf)),n in zip(FASHION_FILES.items(), (n_train, n_valid))}
    return write_image_folder(dest, splits, FASHION_CLASSES, marker='e2e')

DIGITS = 'zero one two three four five six seven eight nine'.split()
def digits_folder(n_train=1197):
    "scikit-learn's handwritten digits (8x8) as PNGs of random sides from 24 to 48 px, written once"
    dest = tpu_vision_home()/'e2e_digits'
    if (dest/'.e2e_done').exists(): return dest
    import shutil
    from sklearn.datasets import load_digits
    from PIL import Image
    d,rng,tmp = load_digits(),np.random.default_rng(0),dest.with_name('e2e_digits.tmp')
    shutil.rmtree(tmp, ignore_errors=True)
    for i,(im,y) in enumerate(zip(d.images, d.target)):
        f = tmp/('train' if i < n_train else 'valid')/DIGITS[y]/f'{i:04d}.png'; f.parent.mkdir(parents=True, exist_ok=True)
        side = int(rng.integers(24, 49))
        Image.fromarray((im*255/16).astype(np.uint8)).resize((side, side), Image.BILINEAR).save(f)
    shutil.rmtree(dest, ignore_errors=True); tmp.rename(dest); (dest/'.e2e_done').touch()
    return dest

def tiny_cnn(pretrained=False, **kw):
    "4 conv-BN-ReLU blocks: XLA on a 2-core CPU compiles a ResNet step for minutes"
    blk = lambda i,o: [nn.Conv2d(i, o, 3, stride=2, padding=1), nn.BatchNorm2d(o), nn.ReLU()]
    return nn.Sequential(*blk(3,32), *blk(32,64), *blk(64,128), *blk(128,256), nn.AdaptiveAvgPool2d(1))

arch = tiny_cnn if args.arch == 'tiny' else getattr(models, args.arch)

class EpochTimes(Callback):
    order = 100
    def before_fit(self): self.times = []
    def before_epoch(self): self.t0 = time.perf_counter()
    def after_epoch(self): self.times.append(time.perf_counter() - self.t0)

def stock(path, out, dev, bf16=False):
    kw = {} if args.workers is None else dict(num_workers=args.workers)
    dls = ImageDataLoaders.from_folder(path, train='train', valid='valid', item_tfms=Resize(args.size),
                                       batch_tfms=fastai_aug_transforms(), bs=args.bs, device=dev, **kw)
    learn = vision_learner(dls, arch, pretrained=False, metrics=accuracy, path=out)
    learn.model.to(dev)
    if bf16: learn.to_bf16()
    et = EpochTimes()
    with learn.no_bar(): learn.fit_one_cycle(args.epochs, args.lr, cbs=et)
    learn.export('model.pkl')
    return learn, et.times

def ours(path, out, dev, cache=False):
    # `--workers` reaches `image_dls` through `default_workers()`; the cache has no worker processes
    if args.workers is not None: os.environ['TPU_VISION_WORKERS'] = str(args.workers)
    learn = main_learner(path, arch, args.size, args.bs, aug=True, pretrained=False, verbose=False, cache=cache,
                         label_smoothing=args.label_smoothing)
    learn.path = out
    learn = learn.to_tpu(args.device, precision=args.precision)
    et = EpochTimes()
    with learn.no_bar(): learn.fit_one_cycle(args.ours_epochs or args.epochs, args.lr, cbs=et)
    learn.to_cpu(); export_learner(learn, 'model.pkl')
    return learn, et.times

def accuracy_of(learn, path):
    "Accuracy of the exported model's Learner on the whole validation set, computed the same way for both sides"
    return float(learn.recorder.values[-1][learn.recorder.metric_names[1:].index('accuracy')])

path = folder(args.n_train, args.n_valid) if args.data == 'fashion' else digits_folder()
dev = get_backend(args.device).device
rows = {}
for side in args.order.split(','):
    torch.manual_seed(args.seed); np.random.seed(args.seed)
    import random; random.seed(args.seed)
    out = Path(tpu_vision_home()/'e2e_out'/side); out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    # a fresh home: image_dls' verification record and the cache are made inside the clock, as on a first run
    if not side.startswith('stock'): os.environ['TPU_VISION_HOME'] = tempfile.mkdtemp(prefix='e2e_home')
    learn,times = (stock(path, out, dev, bf16=side == 'stock_bf16') if side.startswith('stock') else
                   ours(path, out, dev, cache=side.endswith('cache')))
    wall = time.perf_counter() - t0
    rows[side] = dict(accuracy=accuracy_of(learn, path), wall_s=round(wall, 1), epoch_s=[round(t, 1) for t in times],
                      exported=(out/'model.pkl').stat().st_size > 0)
    print(f"{side:>10}: accuracy {rows[side]['accuracy']:.4f}, {wall:.1f} s end to end, epochs {rows[side]['epoch_s']} s",
          flush=True)
s = rows.get('stock')
for k,o in rows.items():
    if s and k != 'stock':
        print(f"{k} - stock accuracy: {o['accuracy']-s['accuracy']:+.4f}; wall time {k}/stock: "
              f"{o['wall_s']/s['wall_s']:.2f}; median epoch {k}/stock: {np.median(o['epoch_s'])/np.median(s['epoch_s']):.2f}")
res = dict(provenance=provenance(), args=vars(args), torch=torch.__version__, rows=rows)
if args.json: Path(args.json).write_text(json.dumps(res, indent=1))
