"""Scaling of data-parallel training (07_parallel) from 1 to N XLA devices: images/s of steady-state epochs.

Each configuration runs in a fresh process (an XLA runtime, once started, cannot launch replicas):
- 1 device: `learn.to_tpu()` in the process (PJRT_DEVICE=CPU, one XLA:CPU device);
- N devices: `learn.to_tpu(devices=N)`, i.e. `torch_xla.launch` with CPU_NUM_DEVICES=N.
Weak scaling keeps the batch per device (global bs = N × bs); strong scaling keeps the global batch.
Images/s counts the training and validation images of an epoch over its wall time (from `learn.counters`), averaged
over the epochs after the first (which compiles).

    python bench/parallel_bench.py                      # resnet18, 32 px, bs 64 per device, 1 vs 2 devices
    python bench/parallel_bench.py --arch resnet34 --size 64 --devices 1 2 4
"""
import argparse, json, os, subprocess, sys, time

def worker(a):
    from tpu_vision.all import image_dls, sample_data
    from fastai.vision.all import vision_learner, accuracy, Resize, set_seed
    import fastai.vision.all as fv
    set_seed(0)
    dls = image_dls(sample_data(), size=a.size, bs=a.bs, item_tfms=Resize(a.size), verbose=False, device='cpu', num_workers=0)
    learn = vision_learner(dls, getattr(fv, a.arch), pretrained=False, metrics=accuracy)
    learn.to_tpu(devices=a.n) if a.n > 1 else learn.to_tpu('xla')
    with learn.no_bar(), learn.no_logging(): learn.fit(a.epochs, 1e-3)
    n_img = len(dls.train)*dls.train.bs + dls.valid.n
    secs = [c['seconds'] for c in learn.counters]
    print(json.dumps(dict(devices=a.n, bs=a.bs, images_per_epoch=n_img, epoch_seconds=secs,
                          compiles=[c['compiles'] for c in learn.counters],
                          images_per_s=n_img/(sum(secs[1:])/len(secs[1:])))))

def run(n, bs, a):
    env = {k:v for k,v in os.environ.items() if k not in ('CPU_NUM_DEVICES',)}
    env['PJRT_DEVICE'] = 'CPU'
    cmd = [sys.executable, __file__, '--worker', str(n), '--bs', str(bs), '--arch', a.arch, '--size', str(a.size), '--epochs', str(a.epochs)]
    r = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if r.returncode: sys.exit(f'{cmd} failed:\n{r.stderr[-3000:]}')
    return json.loads(r.stdout.strip().splitlines()[-1])

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--devices', type=int, nargs='+', default=[1, 2]); p.add_argument('--bs', type=int, default=64, help='batch per device')
    p.add_argument('--arch', default='resnet18'); p.add_argument('--size', type=int, default=32); p.add_argument('--epochs', type=int, default=3)
    p.add_argument('--worker', type=int, default=None, help=argparse.SUPPRESS)
    a = p.parse_args()
    if a.worker is not None: a.n = a.worker; return worker(a)
    print(f'{a.arch}, {a.size} px, {a.epochs} epochs, Fashion-MNIST sample (1000 train + 300 valid), XLA:CPU, {os.cpu_count()} cores')
    base = None
    print(f"{'devices':>7} {'global bs':>9} {'scaling':>8} {'s/epoch':>8} {'images/s':>9} {'efficiency':>10}")
    for n in a.devices:
        for kind,bs in ([('weak', a.bs*n), ('strong', a.bs)] if n > 1 else [('-', a.bs)]):
            r = run(n, bs, a)
            base = base or r['images_per_s']
            eff = r['images_per_s']/(n*base)
            print(f"{n:>7} {bs:>9} {kind:>8} {sum(r['epoch_seconds'][1:])/len(r['epoch_seconds'][1:]):>8.1f} {r['images_per_s']:>9.1f} {eff:>10.0%}", flush=True)

if __name__ == '__main__': main()
