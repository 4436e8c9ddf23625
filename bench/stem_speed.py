#!/usr/bin/env python
"""What `stem_pool=False` (03a_models) costs per training step: resnet18's body and a linear head, with and without the
stem's max-pool, NCHW and channels_last, on random batches (the model alone, no data pipeline).

    python bench/stem_speed.py                 # bs 64, 32 px, 2 threads, mean of 10 steps after 3 warm-up steps

A benchmark, not a test. Accuracy of the two stems: `python bench/recipe.py --variants light_ls,light_ls_nopool`.
"""
import argparse, sys, time, torch
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from torch import nn
from fastai.vision.all import create_body, models
from tpu_vision.models import drop_stem_pool
p = argparse.ArgumentParser()
p.add_argument('--bs', type=int, default=64); p.add_argument('--size', type=int, default=32)
p.add_argument('--threads', type=int, default=2); p.add_argument('--steps', type=int, default=10)
args = p.parse_args()
from record import header; print(header(), flush=True)
torch.set_num_threads(args.threads); torch.manual_seed(0)

def model(pool):
    m = nn.Sequential(create_body(models.resnet18(), pretrained=False),
                      nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(512, 10))
    return m if pool else drop_stem_pool(m)

for pool in (True, False):
    for cl in (False, True):
        m = model(pool); opt = torch.optim.Adam(m.parameters())
        x, y = torch.randn(args.bs, 3, args.size, args.size), torch.randint(0, 10, (args.bs,))
        if cl: m, x = m.to(memory_format=torch.channels_last), x.contiguous(memory_format=torch.channels_last)
        for i in range(3 + args.steps):
            if i == 3: t = time.perf_counter()
            loss = nn.functional.cross_entropy(m(x), y); opt.zero_grad(); loss.backward(); opt.step()
        print(f"stem max-pool {'yes' if pool else 'no ':3} channels_last {'yes' if cl else 'no ':3}: "
              f"{(time.perf_counter()-t)/args.steps*1000:.0f} ms per step", flush=True)
