#!/usr/bin/env python
"""Build the Fashion-MNIST sample shipped in the package, `tpu_vision/assets/fashion_mnist_sample.npz`.

A balanced random subset (seeded): `--train` images per class from Fashion-MNIST's training file and `--valid`
per class from its test file, 28x28 greyscale uint8. `tpu_vision.data.sample_data()` writes it out as an
ImageNet-style folder. The IDX files come from Debian's `dataset-fashion-mnist` (or `--src`).

    python tools/make_sample.py                      # 10 classes x (100 train + 30 valid)
    python tools/make_sample.py --train 200 --valid 50
"""
import argparse, sys
from pathlib import Path
import numpy as np
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from tpu_vision.data import read_idx, FASHION_CLASSES, FASHION_FILES, FASHION_DIRS

def pick(y, n, rng):
    "Sorted indices of `n` items of each class of `y`, chosen with `rng`"
    return np.sort(np.concatenate([rng.choice(np.flatnonzero(y == c), n, replace=False) for c in range(len(FASHION_CLASSES))]))

def main():
    p = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    p.add_argument('--src', default=FASHION_DIRS[0], help='folder with the IDX files')
    p.add_argument('--train', type=int, default=100, help='training images per class')
    p.add_argument('--valid', type=int, default=30, help='validation images per class (from the test file)')
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--out', default=str(Path(__file__).resolve().parents[1]/'tpu_vision'/'assets'/'fashion_mnist_sample.npz'))
    a = p.parse_args()
    rng,src,out = np.random.default_rng(a.seed),Path(a.src),{}
    for split,n in (('train', a.train), ('valid', a.valid)):
        x,y = (read_idx(src/f) for f in FASHION_FILES[split])
        i = pick(y, n, rng)
        out.update({f'x_{split}': x[i], f'y_{split}': y[i], f'idx_{split}': i})
    np.savez_compressed(a.out, classes=np.array(FASHION_CLASSES), **out)
    print(f"{a.out}: {len(out['x_train'])} train + {len(out['x_valid'])} valid images, {Path(a.out).stat().st_size/1e6:.2f} MB")

if __name__ == '__main__': main()
