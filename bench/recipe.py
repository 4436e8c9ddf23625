#!/usr/bin/env python
"""Which training recipe for small images? Variants side by side in one run, same data, model, schedule and seed.

    python bench/recipe.py                                    # 10 000 / 5 000 Fashion-MNIST images, 3 epochs, eager CPU
    python bench/recipe.py --n-train 60000 --n-valid 10000 --epochs 5 --variants light_ls  # the full data set

Each variant is a batch augmentation, a loss and maybe a model change (`stem_pool=False`, 03a_models); everything else
is the main job's (03c_recipe's `main_learner` with `cache=True` at 32 px: resnet18 from scratch, `fit_one_cycle(epochs,
3e-3)`, bs 64).
Prints accuracy on the whole validation set and seconds per variant, and a line per epoch. A benchmark, not a test: it
measures why `default_aug` (02_augment) and the CLI's label smoothing are the defaults.
"""
import argparse, json, os, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tpu_vision.recipe import RECIPE, EPOCHS, main_learner   # the main job's defaults and Learner (no torch yet)

VARIANTS = {  # name: (aug_transforms keywords, label smoothing[, vision_learner keywords[, extras: lr, zero_init]])
    'fastai':    (dict(), 0.),                                        # fastai's aug_transforms(), cross-entropy
    'fastai_ls': (dict(), 0.1),
    'light':     (dict(max_rotate=0., max_warp=0., max_lighting=0.), 0.),
    'light_ls':  (dict(max_rotate=0., max_warp=0., max_lighting=0.), 0.1),  # the main job's: `default_aug(size)` at <= 64 px
    'flip_ls':   (dict(max_rotate=0., max_warp=0., max_lighting=0., max_zoom=1.), 0.1),
    'light_ls_nopool': (dict(max_rotate=0., max_warp=0., max_lighting=0.), 0.1, dict(stem_pool=False)),  # 03a_models
    'light_ls_lr1e-2': (dict(max_rotate=0., max_warp=0., max_lighting=0.), 0.1, {}, dict(lr=1e-2)),
    'light_ls_zero':   (dict(max_rotate=0., max_warp=0., max_lighting=0.), 0.1, {}, dict(zero_init=True)),
    'light_ls_zero_lr1e-2': (dict(max_rotate=0., max_warp=0., max_lighting=0.), 0.1, {}, dict(lr=1e-2, zero_init=True)),
}
p = argparse.ArgumentParser()
p.add_argument('--n-train', type=int, default=10000); p.add_argument('--n-valid', type=int, default=5000)
p.add_argument('--epochs', type=int, default=EPOCHS); p.add_argument('--bs', type=int, default=RECIPE['bs'])
p.add_argument('--size', type=int, default=32); p.add_argument('--lr', type=float, default=RECIPE['lr'])
p.add_argument('--arch', default=RECIPE['arch']); p.add_argument('--seed', type=int, default=0)
p.add_argument('--device', default='cpu')
p.add_argument('--variants', default='fastai,light_ls,flip_ls', help=f"comma-separated, from {', '.join(VARIANTS)}")
p.add_argument('--json', default=None, help='also write the results to this JSON file')
args = p.parse_args()
from record import header, provenance; print(header(), flush=True)

import numpy as np, torch, random
from fastai.vision.all import models
from tpu_vision.data import FASHION_CLASSES, FASHION_FILES, fashion_mnist_idx, read_idx, write_image_folder, tpu_vision_home
from tpu_vision.augment import aug_transforms
from tpu_vision.cli import epoch_lines  # one plain line per epoch, as `tpu-vision train` prints
import tpu_vision.learner, tpu_vision.optim

def folder(n_train, n_valid):
    "Fashion-MNIST's first `n_train` training and `n_valid` test images as PNG folders, written once"
    dest = tpu_vision_home()/f'e2e_fashion_{n_train}_{n_valid}'
    if (dest/'.tpu_vision').exists(): return dest
    splits = {s:(read_idx(fashion_mnist_idx()/xf)[:n], read_idx(fashion_mnist_idx()/yf)[:n])
              for (s,(xf,yf)),n in zip(FASHION_FILES.items(), (args.n_train, args.n_valid))}
    return write_image_folder(dest, splits, FASHION_CLASSES, marker='e2e')

def recipe(name):
    kw,ls,lkw,extra = (VARIANTS[name] + ({}, {}))[:4]
    return aug_transforms(**kw), ls, lkw, extra

def zero_init_residual(model):
    "Each residual block starts as the identity: its last BatchNorm's scale at 0 (torchvision's `zero_init_residual`)"
    from torchvision.models.resnet import BasicBlock, Bottleneck
    for m in model.modules():
        if isinstance(m, BasicBlock): torch.nn.init.zeros_(m.bn2.weight)
        elif isinstance(m, Bottleneck): torch.nn.init.zeros_(m.bn3.weight)

path,rows = folder(args.n_train, args.n_valid),{}
for name in args.variants.split(','):
    torch.manual_seed(args.seed); np.random.seed(args.seed); random.seed(args.seed)
    t0 = time.perf_counter()
    tfms,ls,lkw,extra = recipe(name)
    learn = main_learner(path, getattr(models, args.arch), args.size, args.bs, batch_tfms=tfms, label_smoothing=ls,
                         cache=True, **lkw)
    dls = learn.dls
    if extra.get('zero_init'): zero_init_residual(learn.model)
    learn = learn.to_tpu(args.device)
    with learn.no_bar(), epoch_lines(learn): learn.fit_one_cycle(args.epochs, extra.get('lr', args.lr))
    acc = float(learn.recorder.values[-1][learn.recorder.metric_names[1:].index('accuracy')])
    rows[name] = dict(accuracy=acc, wall_s=round(time.perf_counter()-t0, 1),
                      per_epoch=[float(v[learn.recorder.metric_names[1:].index('accuracy')]) for v in learn.recorder.values])
    print(f"{name:>10}: accuracy {acc:.4f} ({round(acc*len(dls.valid_ds))}/{len(dls.valid_ds)}), "
          f"{rows[name]['wall_s']} s, per epoch {[round(a, 4) for a in rows[name]['per_epoch']]}", flush=True)
if args.json: Path(args.json).write_text(json.dumps(dict(provenance=provenance(), args=vars(args), torch=torch.__version__, rows=rows), indent=1))
