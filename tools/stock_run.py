"""Train a stock fastai Learner on the CPU, never calling `to_tpu`, and print what a user sees as one JSON object.

    python tools/stock_run.py plain   # fastai alone
    python tools/stock_run.py with    # the same after `from tpu_vision.all import *`

03_learner runs both and asserts that they print and record the same: importing tpu_vision changes nothing for a
Learner that did not ask for it (progress output, warnings, losses, metrics, predictions, checkpoints, export).
"""
import sys, re, io, json, warnings, tempfile, contextlib
from pathlib import Path
import numpy as np, torch
from torch import nn
from PIL import Image
from fastai.vision.all import *
if sys.argv[1:] == ['with']: from tpu_vision.all import *

def folder():
    "A tiny ImageNet-style folder of coloured noise, 3 classes"
    root,rng = Path(tempfile.mkdtemp()),np.random.default_rng(0)
    for split,n in [('train', 16), ('valid', 6)]:
        for c in range(3):
            d = root/split/f'c{c}'; d.mkdir(parents=True)
            for i in range(n):
                a = (rng.random((12, 12, 3))*80).astype(np.uint8); a[..., c] += 120
                Image.fromarray(a).save(d/f'{i}.png')
    return root

def run():
    set_seed(0, reproducible=True)
    root = folder()
    dls = ImageDataLoaders.from_folder(root, item_tfms=Resize(8), batch_tfms=aug_transforms(size=8), bs=16, num_workers=0)
    model = nn.Sequential(nn.Conv2d(3,4,3), nn.BatchNorm2d(4), nn.ReLU(), nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(4,3))
    learn = Learner(dls, model, metrics=accuracy, path=tempfile.mkdtemp())
    learn.fit_one_cycle(2, 1e-2)
    vals = [list(map(float, v)) for v in learn.recorder.values]
    learn.to_fp16(); learn.fit(1, 1e-3); learn.to_fp32()
    learn.save('m'); learn.load('m')
    p,t = learn.get_preds()
    v = learn.validate()
    learn.export('e.pkl')
    pred = load_learner(learn.path/'e.pkl').predict(str(next((root/'valid'/'c1').iterdir())))
    return dict(values=vals + [list(map(float, v)) for v in learn.recorder.values], preds=p.tolist(), valid=list(map(float, v)),
                losses=[float(l) for l in learn.recorder.losses], cbs=sorted(type(c).__name__ for c in learn.cbs),
                predict=[str(pred[0]), int(pred[1]), pred[2].tolist()])

out = io.StringIO()
with warnings.catch_warnings(record=True) as w, contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
    warnings.simplefilter('always')
    res = run()
print(json.dumps(dict(res=res, out=re.sub(r'\d\d:\d\d', 'mm:ss', out.getvalue()),
                      warnings=sorted(set(f'{x.category.__name__}: {x.message}' for x in w)))))
