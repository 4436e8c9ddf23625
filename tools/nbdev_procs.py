"""nbdev doc processors of this project (`doc_procs` in pyproject.toml; run `PYTHONPATH=tools nbdev-docs`).

A *test cell* is a code cell that checks something (an `assert`, or a call of a `test_*` function such as
fastcore.test's `test_eq`, `test_fail`, `test_close`, anywhere in it) and shows nothing (no stored output). It proves
the code above it to `nbdev-test`; a reader skips it, so the docs leave it out -- unless the prose introduces it (the
markdown cell just before ends with a colon: "as a forward hook shows:"), where it is part of the story. A cell that
checks and also shows a result (a table, a figure, a printout) is an example and stays.
"""
import ast
from nbdev.process import Processor

def _is_check(st):
    "Is the statement `st` an `assert` or a `test_*(...)` call?"
    if isinstance(st, ast.Assert): return True
    if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)): return False
    f = st.value.func
    return (getattr(f, 'id', None) or getattr(f, 'attr', '')).startswith('test_')

def is_test_cell(source:str, outputs=()):
    "Does a code cell with `source` and `outputs` check something and show nothing?"
    if outputs: return False
    try: tree = ast.parse(source)
    except SyntaxError: return False   # a magic (`%time`) or another language: not ours to judge
    return any(_is_check(o) for o in ast.walk(tree) if isinstance(o, ast.stmt))

def _src(c): return ''.join(c.get('source') or '')

def test_cells(cells):
    "Indices of the test cells in `cells`, a notebook's cells in the order a reader sees them (see the docstring)"
    intro = lambda c: c['cell_type'] == 'markdown' and _src(c).rstrip().endswith(':')
    return [i for i,c in enumerate(cells) if c['cell_type'] == 'code' and is_test_cell(_src(c), c.get('outputs'))
            and not (i and intro(cells[i-1]))]

def md_without_directives(src:str) -> str:
    "A markdown cell's text without its `#|` lines (`#| export` puts a cell in the module docstring: nbdev's `_retr_mdoc`)"
    return '\n'.join(l for l in src.splitlines() if not l.startswith('#|'))

class hide_tests(Processor):
    "nbdev processor: drop test cells from the docs, as nbdev's `hide_` drops a `#| hide` cell; no `#|` line in markdown"
    def begin(self): self.drop = {id(self.nb.cells[i]) for i in test_cells(self.nb.cells)}
    def __call__(self, cell):
        if id(cell) in self.drop: del cell['source']
        elif cell.cell_type == 'markdown' and '#|' in cell.source: cell.source = md_without_directives(cell.source)
