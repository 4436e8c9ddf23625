"""What starting XLA as SPMD on a host of several devices costs a plain `to_tpu()` (07_parallel, issue 40 item 2).

On a host of several XLA devices tpu_vision starts XLA as SPMD (00_device's `XLABackend.starts_spmd`), so that
`to_tpu(devices='all')` can come after `image_dls` in a notebook. A plain `to_tpu()` then trains on one logical
device whose tensors are replicated on every device. This runs the natural code -- `image_dls()` (the sample, 16 px,
bs 100), a small CNN, `to_tpu()`, `fit_one_cycle(2, 0.1)` -- each run in a fresh process, in three setups, interleaved
over `--rounds` rounds:

- `spmd4`: 4 XLA:CPU devices, XLA started as SPMD (the default with `CPU_NUM_DEVICES=4`);
- `off4`: 4 XLA:CPU devices, `TPU_VISION_SPMD=0` (the runtime on one device: the behaviour before);
- `one`: 1 XLA:CPU device.

Per run: the seconds of epoch 2 (compiled: the step's cost alone), accuracy, compilations and device->host transfers
per epoch. Prints one JSON line per run and a markdown table of medians with the range.

    python bench/spmd_start_cost.py --rounds 3
"""
import argparse, json, os, subprocess, sys, statistics

SETUPS = {'spmd4': dict(CPU_NUM_DEVICES='4'), 'off4': dict(CPU_NUM_DEVICES='4', TPU_VISION_SPMD='0'), 'one': {}}

WORKER = '''
import json, tempfile, torch
from fastai.vision.all import *
from tpu_vision.all import *
from tpu_vision.test_utils import tiny
dls = image_dls(size=16, bs=100, verbose=False)
torch.manual_seed(0)
learn = Learner(dls, tiny(10), metrics=accuracy, lr=0.1, path=tempfile.mkdtemp()).to_tpu()
with learn.no_bar(): learn.fit_one_cycle(2)
b = learn.backend
print(json.dumps(dict(backend=type(b).__name__, devices=b.device_count, spmd=b.xr.is_spmd(),
                      accuracy=float(learn.recorder.values[-1][2]), epoch_s=[c["seconds"] for c in learn.counters],
                      compiles=[c["compiles"] for c in learn.counters], to_host=[c["to_host"] for c in learn.counters])))
'''

def run(setup):
    env = {k:v for k,v in os.environ.items() if k not in ('CPU_NUM_DEVICES', 'XLA_USE_SPMD', 'TPU_VISION_SPMD')}
    r = subprocess.run([sys.executable, '-c', WORKER], capture_output=True, text=True,
                       env={**env, 'PJRT_DEVICE': 'CPU', **SETUPS[setup]})
    if r.returncode: sys.exit(f'{setup} failed:\n{r.stderr[-3000:]}')
    return dict(setup=setup, **json.loads(r.stdout.strip().splitlines()[-1]))

if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('--rounds', type=int, default=3); a = p.parse_args()
    rows = []
    for i in range(a.rounds):
        for s in SETUPS: rows.append(r := run(s)); print(json.dumps(r), flush=True)
    print('| setup | backend, devices, SPMD | epoch 2 (s): median [min, max] | accuracy | compilations | transfers |')
    print('|---|---|---|---|---|---|')
    for s in SETUPS:
        rs = [r for r in rows if r['setup'] == s]; t = [r['epoch_s'][1] for r in rs]
        print(f"| {s} | {rs[0]['backend']}, {rs[0]['devices']}, {rs[0]['spmd']} | {statistics.median(t):.2f} "
              f"[{min(t):.2f}, {max(t):.2f}] | {statistics.median(r['accuracy'] for r in rs):.3f} | "
              f"{rs[0]['compiles']} | {rs[0]['to_host']} |")
