"""The package's shape: no import circle, counting the imports inside functions (tools/structure.py), and one table of
export formats that `export_model`, `tpu-vision export --format`, `tpu-vision predict` and the docs read"""
import argparse, sys
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
import structure

def test_no_import_circle():
    "No two modules import each other, directly or through others, even inside functions (the CLI's commands aside)"
    graph, every = structure.graphs(structure.sources())
    assert structure.circles(graph) == [], structure.circles(graph)
    assert structure.circles(every) == [], structure.circles(every)

def test_circles_seen():
    "The check sees a circle closed by an import inside a function, and an `import tpu_vision.x` one"
    srcs = {'a': 'from .b import f', 'b': 'def g():\n    from tpu_vision.a import h', 'c': 'import tpu_vision.d',
            'd': 'import tpu_vision.c', 'e': 'from . import a'}
    graph, every = structure.graphs(srcs)
    assert structure.circles(graph) == [['c', 'd']]
    assert sorted(structure.circles(every)) == [['a', 'b'], ['c', 'd']]

def _format_choices(cli):
    sub = next(a for a in cli.parser()._actions if isinstance(a, argparse._SubParsersAction)).choices['export']
    return next(a for a in sub._actions if '--format' in a.option_strings).choices

@pytest.fixture
def table():
    "06b_formats' `FORMATS`, with a format added (removed afterwards)"
    from tpu_vision.formats import FORMATS
    FORMATS['fake'] = FORMATS['onnx']._replace(name='fake', suffix='.fake', out='.fake', loader='json:loads', extra=None)
    try: yield FORMATS
    finally: del FORMATS['fake']

def test_one_table_of_formats(table, tmp_path):
    "The CLI's `--format` choices, `load_predictor`'s suffixes and the docs table are the table's, a format added too"
    import tpu_vision.cli as cli
    from tpu_vision.formats import format_of, formats_table
    assert list(_format_choices(cli)) == list(table)
    assert [r.split(' | ')[0] for r in formats_table().splitlines()[2:]] == [f'| `{k}`' for k in table]
    assert {k: format_of('m' + f.suffix).name for k,f in table.items()} == {k: k for k in table}
    (tmp_path/'m.fake').write_text('x')   # read by the table's loader for it, `json.loads`, which takes no Path
    with pytest.raises(cli.UsageError, match=r'm\.fake is not a model exported by tpu-vision/fastai \(TypeError'):
        cli.load_predictor(tmp_path/'m.fake')
    (tmp_path/'m.txt').write_text('x')
    with pytest.raises(cli.UsageError, match=r'\.xml, \.tflite, \.xint8\.onnx or \.fake of `export`'): cli.load_predictor(tmp_path/'m.txt')
