"""channels_last, a fused optimizer step (04_optim's `to_tpu(channels_last=..., opt=...)`) and the CPU's kernel choices
(04_optim's `FastMaxPool` and `small_maps_fp32`), measured side by side.

    python bench/levers_bench.py --device cpu [--arch resnet18] [--size 32] [--bs 32] [--steps 8] [--rounds 5] [--compile] [--json F]

Every variant is the same `Learner` (fastai's `create_vision_model`, no pretrained weights, fastai's default `Adam`),
the same synthetic data and seed, `to_tpu(device, compile=False, ...)` (`--compile`: `compile=True`); one epoch of each in turn per round (so a busy
machine slows all alike), after one warm-up epoch each. Prints, per variant: median images/s of a whole epoch
(training + validation), its spread (± half of fastest - slowest, over the median), and the validation loss and
accuracy after the last round (every variant ran as many epochs with the same constant lr).
"""
import argparse, json, statistics, time, warnings
import torch
from fastai.data.core import DataLoaders
from fastai.learner import Learner
from fastai.losses import CrossEntropyLossFlat
from fastai.metrics import accuracy
from fastai.torch_core import set_seed
from fastai.vision.learner import create_vision_model
from timm import create_model
import tpu_vision.learner  # noqa: F401  (`Learner.to_tpu`)
warnings.filterwarnings('ignore')

VARIANTS = {'default (NCHW, fastai Adam)': dict(channels_last=False, opt='fastai'),
            'channels_last': dict(channels_last=True, opt='fastai'),
            'foreach AdamW': dict(channels_last=False, opt='foreach'),
            'fused AdamW': dict(channels_last=False, opt='fused'),
            'channels_last + fused': dict(channels_last=True, opt='fused'),
            'bf16': dict(channels_last=False, opt='fastai', precision='bf16'),
            'channels_last + bf16': dict(channels_last=True, opt='fastai', precision='bf16'),
            'fused + bf16': dict(channels_last=False, opt='fused', precision='bf16'),
            'channels_last + fused + bf16': dict(channels_last=True, opt='fused', precision='bf16'),
            # the CPU's kernel choices (04_optim): off = only the fix of the 1x1 bf16 bug, NCHW max-pool as torch has it
            'fused + bf16 (CPU kernels off)': dict(channels_last=False, opt='fused', precision='bf16', kernels=False),
            'fused + bf16 (max-pool only)': dict(channels_last=False, opt='fused', precision='bf16', kernels='pool'),
            'fused + bf16 (small maps only)': dict(channels_last=False, opt='fused', precision='bf16', kernels='maps')}
FP32 = dict(precision='fp32')   # the variants without `precision`: float32 (the CPU's 'auto' may be bf16)

def synth(n, size, classes=10, seed=0):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, classes, (n,), generator=g)
    x = torch.rand(n, 3, size, size, generator=g)*0.5
    x[torch.arange(n), y % 3, :size//2] += 0.5*(1 + y/classes)[:, None, None]   # a learnable signal per class
    return [(x[i], y[i]) for i in range(n)]

def kernels(learn, which):
    "Keep only `which` of 04_optim's CPU kernel choices: True (both), 'pool' (`FastMaxPool`), 'maps' (`small_maps_fp32`)"
    from tpu_vision.optim import AutoMixedPrecision, FastMaxPool
    if which in (False, 'maps'): learn.remove_cbs(learn.cbs.filter(lambda c: isinstance(c, FastMaxPool)))
    if which in (False, 'pool'):
        for c in learn.cbs.filter(lambda c: isinstance(c, AutoMixedPrecision)): c.small_side = 1   # the 1x1 fix only
    return learn

def learner(a, kw):
    kw = dict(kw); which = kw.pop('kernels', True)
    set_seed(0)
    dls = DataLoaders.from_dsets(synth(a.bs*a.steps, a.size), synth(a.bs*2, a.size, seed=1), bs=a.bs, num_workers=0)
    model = create_vision_model(a.arch, 10, pretrained=False) if a.arch != 'timm' else create_model('resnet18', num_classes=10)
    learn = Learner(dls, model, loss_func=CrossEntropyLossFlat(), metrics=accuracy).to_tpu(a.device, compile=a.compile, **{**FP32, **kw})
    kernels(learn, which)
    epoch(learn, a.lr)   # warm-up: the optimizer's state, oneDNN's/cuDNN's first calls
    return learn

def epoch(learn, lr):
    t = time.perf_counter()
    with learn.no_bar(), learn.no_logging(): learn.fit(1, lr)
    learn.backend.wait()
    return time.perf_counter() - t

def main():
    p = argparse.ArgumentParser()
    p.add_argument('--device', default='cpu'); p.add_argument('--arch', default='resnet18')
    p.add_argument('--size', type=int, default=32); p.add_argument('--bs', type=int, default=32)
    p.add_argument('--steps', type=int, default=8); p.add_argument('--rounds', type=int, default=5)
    p.add_argument('--lr', type=float, default=1e-3); p.add_argument('--json')
    p.add_argument('--compile', action='store_true')
    p.add_argument('--variants', help='comma-separated names of VARIANTS to run (default: all)')
    a = p.parse_args()
    from record import header, provenance; print(header(), flush=True)
    if a.arch != 'timm':
        import torchvision.models as tvm
        a.arch = getattr(tvm, a.arch)
    pick = a.variants.split(',') if a.variants else list(VARIANTS)
    learns = {n: learner(a, VARIANTS[n]) for n in pick}
    secs = {n: [] for n in learns}
    for _ in range(a.rounds):
        for n,l in learns.items(): secs[n].append(epoch(l, a.lr))
    rows, base = [], None
    for n,l in learns.items():
        ips = [a.bs*a.steps/s for s in secs[n]]; med = statistics.median(ips)
        base = base or med
        vl,acc = l.recorder.values[-1][1:3]
        rows.append(dict(variant=n, img_s=med, spread=(max(ips)-min(ips))/2/med, vs_default=med/base,
                         valid_loss=vl, accuracy=acc, opt=type(l.opt).__name__))
    print(f"{a.device}: {getattr(a.arch, '__name__', a.arch)} {a.size} px, bs {a.bs}, {a.steps} steps/epoch, {a.rounds} rounds, "
          f"torch {torch.__version__}, {torch.get_num_threads()} threads, compile={a.compile}, "
          f"precision: {[type(c).__name__ for c in learns[next(iter(learns))].cbs if 'Precision' in type(c).__name__] or 'fp32'}")
    print('| variant | img/s | spread | × default | valid loss | accuracy | optimizer |\n|---|---|---|---|---|---|---|')
    for r in rows:
        print(f"| {r['variant']} | {r['img_s']:.1f} | ±{r['spread']:.0%} | {r['vs_default']:.2f}× | {r['valid_loss']:.4f} "
              f"| {r['accuracy']:.3f} | {r['opt']} |")
    if a.json: open(a.json, 'w').write(json.dumps(dict(provenance=provenance(), args={k: str(v) for k,v in vars(a).items()}, rows=rows), indent=1))

if __name__ == '__main__': main()
