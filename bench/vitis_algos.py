"""How much Quark's other algorithms recover of XINT8's agreement on a depthwise network (06h_vitis):

    PJRT_DEVICE=CPU python bench/vitis_algos.py [--variants plain,cle,adaround] [--pkl LITE0.pkl]

EfficientNet-Lite0 fine-tuned on the sample as bench/edge.py does (or the `.pkl` given), exported with
`export_model(..., 'vitis')` under each variant of `tpu_vision.vitis.xint8_config`: `plain` (XINT8 + bias
correction, the default), `cle` (cross-layer equalization first), `adaround` (Quark's `XINT8_ADAROUND_QCONFIG`).
Prints, per variant, the conversion time, top-1 and the share of the validation images on which it predicts the
`.pkl`'s class. AdaRound takes about 20x the default's time.
"""
import argparse, copy, sys, tempfile, time, warnings
from pathlib import Path
sys.path.insert(0, str(Path(__file__).parent))
from record import header

def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--variants', default='plain,cle,adaround')
    ap.add_argument('--pkl', default=None, help='a fine-tuned EfficientNet-Lite0 .pkl (default: train one, as bench/edge.py)')
    a = ap.parse_args(); warnings.simplefilter('ignore'); print(header(), flush=True)
    import quark.onnx as qo
    import tpu_vision.vitis as V
    from tpu_vision.export import export_model
    from tpu_vision.evaluate import evaluate
    from tpu_vision.formats import FORMATS, resolve
    from tpu_vision.data import sample_data
    d = Path(tempfile.mkdtemp())
    if a.pkl: src = Path(a.pkl)
    else:
        from edge import train_lite0
        src = train_lite0(d)[0]
    ref = evaluate(resolve(FORMATS['pkl'].loader)(src), folder=sample_data())
    plain = V.xint8_config
    for v in a.variants.split(','):
        def cfg(bias_correction=True, v=v):
            if v == 'adaround': return copy.deepcopy(qo.XINT8_ADAROUND_QCONFIG)
            c = plain(bias_correction)
            if v == 'cle': c.algo_config = [qo.CLEConfig(), *c.algo_config]
            return c
        V.xint8_config = cfg
        t = time.time(); out = export_model(src, 'vitis', d/f'{v}.xint8.onnx', calib=sample_data()/'train')
        ev = evaluate(resolve(FORMATS['vitis'].loader)(out), folder=sample_data())
        print(f'{v}: {time.time()-t:.0f} s, top-1 {ev.top(1):.3f} (pkl {ref.top(1):.3f}), '
              f'agreement {(ev.decoded == ref.decoded).float().mean().item():.1%}', flush=True)

if __name__ == '__main__': main()
