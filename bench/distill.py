#!/usr/bin/env python
"""Does distillation pay? A student alone against the same student distilled, on a Fashion-MNIST subset, several seeds.

    python bench/distill.py teacher   # train the teacher once: bench/results/distill/teacher.pt (+ its logits)
    python bench/distill.py tune [--arms alone distilled --alpha 0.5 --temperature 4]   # alpha x temperature grid
                                      # (CFG's, or these) on a held-out split OF THE TRAINING SET
    python bench/distill.py seeds --arm alone|distilled [--seeds 0 1 2] [--n-student N --epochs E]   # the compared
                                      # runs on train (its first N images) / valid
    python bench/distill.py cost      # seconds per epoch: alone, teacher in the step, cached logits (eager CPU)
    PJRT_DEVICE=CPU python bench/distill.py cost --xla   # the same on the XLA device: compilations, transfers
    python bench/distill.py report    # merge the parts into bench/results/distill.json

Each step writes bench/results/distill/<step>.json with its command (`record.provenance`) and wall time; `report`
merges them. Data: the first N_TRAIN images of Fashion-MNIST's training file (train), the N_VALID first of its test
file (valid, the reported accuracy), 28 px, one channel, normalised, no augmentation, as tensors (read_idx). Both
files are indexed in one pool (training file 0..59,999, test file 60,000..) so that the tuning split can be checked to
be disjoint from the validation indices. Models: the plain CNN of nbs/05_distill (ConvLayers, widths c0-c1-c2).
"""
import argparse, json, sys, time, os
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT/'bench'))
import numpy as np, torch
from torch import nn
from fastai.layers import ConvLayer
from fastai.learner import Learner
from fastai.data.core import DataLoaders
from fastai.metrics import accuracy
from fastai.losses import CrossEntropyLossFlat
from fastai.torch_core import set_seed
from fastai.callback.core import Callback, CancelValidException
import fastai.callback.schedule  # fit_one_cycle
from tpu_vision.data import read_idx, fashion_mnist_idx, FASHION_FILES
from tpu_vision.distill import DistillLearner, tuning_split

OUT = ROOT/'bench/results/distill'
N_TRAIN, N_VALID, N_TEST_FILE = 10_000, 10_000, 60_000
STUDENT, TEACHER = (16,32,64), (32,64,128)
CFG = dict(epochs=3, bs=256, lr=1e-2, teacher_epochs=8, teacher_lr=1e-2, tune_pct=0.2, tune_seed=0,
           grid=dict(alpha=[0.5, 0.9], temperature=[2.0, 4.0]))
DATA, TEACHER_DATA = 'fashion', 'student'   # the pool; the teacher's training images ('student': the student's own)
# --setting: 'cnn' (above: a CNN teacher trained on the student's own 10,000 images), 'guide' (the guide's step 5.3:
# a ResNet-34 teacher that learnt from the 50,000 other images of the training file, the way a pretrained teacher
# knows more than its student's data; a ResNet-18 student from scratch), 'digits' (scikit-learn's 8x8 handwritten
# digits, 1,797 images, other classes: a ResNet-34 teacher trained 40 epochs on the student's images, a ResNet-18
# student from scratch; an ImageNet-pretrained EfficientNet-Lite0 fine-tuned 10 epochs reached only 95.0 %, below the
# student alone)
SETTINGS = dict(
    cnn={},
    guide=dict(OUT=OUT/'guide', STUDENT='resnet18', TEACHER='resnet34', TEACHER_DATA='others',
               CFG=dict(CFG, teacher_epochs=4)),
    digits=dict(OUT=OUT/'digits', DATA='digits', N_TRAIN=1_197, N_VALID=600, STUDENT='resnet18',
                TEACHER='resnet34', CFG=dict(CFG, epochs=10, bs=64, teacher_epochs=40)))

def use(setting):
    "Rebind this module's settings (OUT, data, models, CFG) to `setting`'s"
    globals().update(SETTINGS[setting]); OUT.mkdir(parents=True, exist_ok=True)

def cnn(c=(16,32,64), n_out=10, n_in=1):
    "The plain CNN of 05_distill: three stages of `ConvLayer`s, widths `c`"
    c0,c1,c2 = c
    return nn.Sequential(ConvLayer(n_in,c0), ConvLayer(c0,c0,stride=2), ConvLayer(c0,c1), ConvLayer(c1,c1,stride=2),
                         ConvLayer(c1,c2), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(c2,n_out))
def make(spec):
    "A model: the CNN of widths `spec`, or a timm ResNet by name (one channel in)"
    import timm
    return cnn(spec) if not isinstance(spec, str) else timm.create_model(spec, num_classes=10, in_chans=1)

def n_params(m): return sum(p.numel() for p in m.parameters())

def pool():
    "All Fashion-MNIST images as one pool: (x, y), the training file first, then the test file (or the digits)"
    if DATA == 'digits':
        from sklearn.datasets import load_digits
        d = load_digits(); x = torch.tensor(d.images, dtype=torch.float32)[:,None]/16
        x = nn.functional.interpolate(x, size=28, mode='bilinear', align_corners=False)
        return x.sub(x.mean()).div(x.std()), torch.tensor(d.target, dtype=torch.int64)
    xs,ys = [],[]
    for s in ('train', 'valid'):
        xf,yf = FASHION_FILES[s]
        xs.append(torch.from_numpy(read_idx(fashion_mnist_idx()/xf).copy()))
        ys.append(torch.from_numpy(read_idx(fashion_mnist_idx()/yf).astype(np.int64)))
    x = torch.cat(xs).float().div(255).sub(0.286).div(0.353)[:,None]
    return x, torch.cat(ys)

def splits():
    "Indices into `pool()`: train (first N_TRAIN of the training file), valid (first N_VALID of the test file)"
    if DATA == 'digits': return torch.arange(N_TRAIN), torch.arange(N_TRAIN, N_TRAIN+N_VALID)
    return torch.arange(N_TRAIN), torch.arange(N_TEST_FILE, N_TEST_FILE+N_VALID)

def teacher_split():
    "The teacher's training indices: the student's own, or the rest of the training file (never the validation set)"
    trn,val = splits()
    if TEACHER_DATA == 'student': return trn
    t = torch.arange(N_TRAIN, N_TEST_FILE); assert not set(t.tolist()) & (set(val.tolist()) | set(trn.tolist()))
    return t

def tune_splits():
    "The tuning split: (fit, held-out) drawn from the TRAINING indices only; checked disjoint from valid"
    trn,val = splits()
    fit,hold = tuning_split(trn, CFG['tune_pct'], CFG['tune_seed'])
    s_fit,s_hold,s_val = set(fit.tolist()),set(hold.tolist()),set(val.tolist())
    assert not (s_fit|s_hold) & s_val, "the tuning split touches the validation set"
    assert s_fit|s_hold == set(trn.tolist()) and not s_fit & s_hold
    return fit,hold

_POOL = None
def dls_of(tr_idx, va_idx, seed, bs=None):
    "DataLoaders of the pool's items `tr_idx` (train) and `va_idx` (valid), shuffled from `seed`"
    global _POOL
    if _POOL is None: _POOL = pool()
    x,y = _POOL
    ds = lambda ix: list(zip(x[ix], y[ix]))
    set_seed(seed)
    return DataLoaders.from_dsets(ds(tr_idx), ds(va_idx), bs=bs or CFG['bs'], num_workers=0)

class LastValid(Callback):
    "Validate after the last epoch only (the figures reported are the final model's): saves CPU time"
    def before_validate(self):
        if self.epoch < self.n_epoch-1: raise CancelValidException()

class EpochTimes(Callback):
    "Wall seconds of each training epoch (validation excluded)"
    order = 100
    def before_fit(self): self.secs = []
    def before_train(self): self.t0 = time.perf_counter()
    def after_train(self): self.secs.append(time.perf_counter()-self.t0)

KW = dict(loss_func=CrossEntropyLossFlat(), metrics=accuracy)
def fit(learn, epochs, lr, valid_last=True):
    "Fit quietly with `fit_one_cycle`; return (accuracy, final train loss, seconds per epoch, wall seconds)"
    et = EpochTimes(); t = time.perf_counter()
    with learn.no_bar(), learn.no_logging():
        learn.fit_one_cycle(epochs, lr, cbs=[et]+([LastValid()] if valid_last else []))
    vals = learn.recorder.values[-1]
    return dict(accuracy=float(vals[-1]), valid_loss=float(vals[1]), epoch_s=[round(s, 1) for s in et.secs],
                wall_s=round(time.perf_counter()-t, 1))

def load_teacher():
    m = make(TEACHER); m.load_state_dict(torch.load(OUT/'teacher.pt')); return m.eval()

def teacher_logits(m, idx):
    "The teacher's logits on the pool's items `idx`, in order"
    global _POOL
    if _POOL is None: _POOL = pool()
    with torch.no_grad(): return torch.cat([m(_POOL[0][idx[i:i+512]]) for i in range(0, len(idx), 512)])

def student(seed, dls, arm, alpha=None, temperature=None, logits=None, cache=True, teacher=None):
    "The student's Learner for `arm` ('alone' or 'distilled'), its weights from `seed`"
    set_seed(seed); m = make(STUDENT)
    if arm == 'alone': return Learner(dls, m, **KW)
    l = DistillLearner(dls, m, teacher if teacher is not None else load_teacher(), alpha=alpha,
                       temperature=temperature, cache=cache, **KW)
    if logits is not None:   # the cached logits computed once for this training set (what `cache=True` would compute)
        cb = l.distillation; cb.logits,cb._key = logits,(id(dls.train.dataset), getattr(dls.train, 'n', None))
    return l

def save(step, res):
    from record import provenance
    res = dict(provenance=provenance(), **res)
    (OUT/f'{step}.json').write_text(json.dumps(res, indent=1))
    print(json.dumps(res)[:2000], flush=True)

def do_teacher(a):
    trn,val = teacher_split(),splits()[1]; t = time.perf_counter()
    set_seed(0); learn = Learner(dls_of(trn, val, 0), make(TEACHER), **KW)
    r = fit(learn, CFG['teacher_epochs'], CFG['teacher_lr'])
    torch.save(learn.model.state_dict(), OUT/'teacher.pt')
    save('teacher', dict(teacher=dict(widths=TEACHER, n_train=len(trn), params=n_params(learn.model), epochs=CFG['teacher_epochs'],
                                       lr=CFG['teacher_lr'], seed=0, **r), wall_s=round(time.perf_counter()-t, 1)))

def do_tune(a):
    "The grid (and the student alone) trained on the tuning split's fit part, scored on its held-out part"
    fit_i,hold_i = tune_splits(); t0 = time.perf_counter(); rows = []
    grid = [(al, T) for al in a.alpha or CFG['grid']['alpha'] for T in a.temperature or CFG['grid']['temperature']]
    cfgs = [('alone', None, None)]*('alone' in a.arms) + [('distilled', al, T) for al,T in grid]*('distilled' in a.arms)
    lg = teacher_logits(load_teacher(), fit_i) if 'distilled' in a.arms else None
    for arm,al,T in cfgs:
        dls = dls_of(fit_i, hold_i, CFG['tune_seed'])
        r = fit(student(CFG['tune_seed'], dls, arm, al, T, lg), CFG['epochs'], CFG['lr'])
        rows.append(dict(arm=arm, alpha=al, temperature=T, **r)); print(rows[-1], flush=True)
    part = '_'.join(a.arms + [f'a{al}' for al in a.alpha or []] + [f'T{T}' for T in a.temperature or []])
    save(f"tune_{part}", dict(n_fit=len(fit_i), n_held_out=len(hold_i), rows=rows,
                                          wall_s=round(time.perf_counter()-t0, 1)))

def chosen():
    "The (alpha, temperature) with the best held-out accuracy of the tuning grid"
    rows = [r for f in OUT.glob('tune_*.json') for r in json.loads(f.read_text())['rows'] if r['arm'] == 'distilled']
    best = max(rows, key=lambda r: r['accuracy']); return best['alpha'],best['temperature']

def do_seeds(a):
    "Student alone or distilled, for each seed, on the first `--n-student` training images (default: all N_TRAIN)"
    trn,val = splits(); trn = trn[:a.n_student]; t0 = time.perf_counter(); rows = []
    al,T = chosen() if a.arm == 'distilled' else (None, None)
    lg = teacher_logits(load_teacher(), trn) if a.arm == 'distilled' else None
    for s in a.seeds:
        ep = a.epochs or CFG['epochs']
        r = fit(student(s, dls_of(trn, val, s), a.arm, al, T, lg), ep, CFG['lr'])
        rows.append(dict(arm=a.arm, seed=s, alpha=al, temperature=T, n_train=len(trn), epochs=ep, **r)); print(rows[-1], flush=True)
    n = f'_n{a.n_student}' if a.n_student else ''
    save(f"seeds_{a.arm}{n}_{'_'.join(map(str, a.seeds))}", dict(rows=rows, wall_s=round(time.perf_counter()-t0, 1)))

def do_cost(a):
    "Seconds per training epoch of the student alone, with the teacher in the step, with cached logits"
    trn,val = splits(); trn = trn[:a.n]; t0 = time.perf_counter(); rows = []
    dev = 'xla' if a.xla else 'cpu'
    teacher = load_teacher()
    if a.xla:
        from tpu_vision.device import get_backend
        teacher.to(get_backend('xla').device)
    for arm,cache in [('alone', False), ('distilled', False), ('distilled', True)]:
        dls = dls_of(trn, val[:512], 0)
        l = student(0, dls, arm, 0.5, 4.0, cache=cache, teacher=teacher)
        if a.xla and arm == 'alone': l = l.to_tpu('xla')
        r = fit(l, a.epochs or 3, CFG['lr'], valid_last=False)   # TPUCallback.after_validate needs its before_validate
        c = [dict(compiles=o['compiles'], to_host=o['to_host'], executions=o['executions']) for o in getattr(l, 'counters', [])]
        rows.append(dict(arm=arm if arm == 'alone' else f"distilled, {'cached logits' if cache else 'teacher in the step'}",
                         device=dev, n_train=len(trn), counters=c, **r)); print(rows[-1], flush=True)
        if hasattr(l, 'to_cpu'): l.to_cpu()
        if a.xla: teacher.to(get_backend('xla').device)
    save(f'cost_{dev}', dict(rows=rows, wall_s=round(time.perf_counter()-t0, 1)))

def gain_of(rows):
    "Mean and standard error of the per-seed differences distilled - alone (accuracy) in `rows`"
    by = {(r['arm'], r['seed']): r for r in rows}
    pairs = sorted(s for arm,s in by if arm == 'alone' and ('distilled', s) in by)
    d = np.array([by['distilled', s]['accuracy']-by['alone', s]['accuracy'] for s in pairs])
    return dict(seeds=pairs, mean=float(d.mean()) if len(d) else None,
                se=float(d.std(ddof=1)/np.sqrt(len(d))) if len(d) > 1 else None, diffs=d.tolist())

def do_report(a):
    parts = {f.stem: json.loads(f.read_text()) for f in sorted(OUT.glob('*.json'))}
    seeds = [r for k,p in parts.items() if k.startswith('seeds_') for r in p['rows']]
    ns = sorted({r.get('n_train', N_TRAIN) for r in seeds})
    gains = {n: gain_of([r for r in seeds if r.get('n_train', N_TRAIN) == n]) for n in ns}
    gain = gains.get(N_TRAIN, gain_of([]))
    al,T = chosen() if any(k.startswith('tune_') for k in parts) else (None, None)
    from record import provenance
    res = dict(provenance=provenance(), config=dict(CFG, n_train=N_TRAIN, n_valid=N_VALID, student=STUDENT, teacher=TEACHER,
                           student_params=n_params(make(STUDENT)), teacher_params=n_params(make(TEACHER)),
                           data=DATA, teacher_data=TEACHER_DATA),
               chosen=dict(alpha=al, temperature=T, on='held-out split of the training set (tuning_split)'),
               gain=gain, gains_by_n_train=gains, parts=parts)
    name = 'distill' if OUT.name == 'distill' else f'distill_{OUT.name}'
    (ROOT/f'bench/results/{name}.json').write_text(json.dumps(res, indent=1))
    from record import header   # the log: this command, then each part's log
    logs = [f.read_text() for f in sorted(OUT.glob('*.log'))]
    (ROOT/f'bench/results/{name}.log').write_text('\n'.join([header(), *logs]))
    print(json.dumps(dict(chosen=res['chosen'], gain=gain)))

if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('step', choices=['teacher', 'tune', 'seeds', 'cost', 'report'])
    p.add_argument('--arm', default='alone'); p.add_argument('--arms', nargs='+', default=['alone', 'distilled'])
    p.add_argument('--seeds', nargs='+', type=int, default=[0, 1, 2])
    p.add_argument('--alpha', nargs='+', type=float); p.add_argument('--temperature', nargs='+', type=float)
    p.add_argument('--xla', action='store_true'); p.add_argument('--n', type=int, default=2048)
    p.add_argument('--epochs', type=int); p.add_argument('--n-student', type=int)
    p.add_argument('--setting', choices=list(SETTINGS), default='cnn')
    a = p.parse_args(); use(a.setting)
    from record import header; print(header(), flush=True)
    globals()[f'do_{a.step}'](a)
