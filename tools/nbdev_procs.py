"""nbdev doc processors of this project (`doc_procs` in pyproject.toml; run `PYTHONPATH=tools nbdev-docs`).

A *test cell* is a code cell that checks something (an `assert` or a call of a `test_*` function such as
fastcore.test's `test_eq`, `test_fail`, `test_close`, anywhere in it) and shows nothing (no stored output).
It proves the code above it to `nbdev-test`; a reader skips it, so the docs leave it out. A cell that checks
and also shows a result (a table, a figure, a printout) is an example and stays.
"""
import ast

def _is_check(st):
    "Is the statement `st` an `assert` or a `test_*(...)` call?"
    if isinstance(st, ast.Assert): return True
    if not (isinstance(st, ast.Expr) and isinstance(st.value, ast.Call)): return False
    f = st.value.func
    return (getattr(f, 'id', None) or getattr(f, 'attr', '')).startswith('test_')

def is_test_cell(source:str, outputs=()):
    "Is a code cell with `source` and `outputs` a test cell (see the module docstring)?"
    if outputs: return False
    try: tree = ast.parse(source)
    except SyntaxError: return False   # a magic (`%time`) or another language: not ours to judge
    return any(_is_check(o) for o in ast.walk(tree) if isinstance(o, ast.stmt))

def hide_tests(cell):
    "nbdev processor: drop test cells from the docs, as nbdev's `hide_` drops a `#| hide` cell"
    if cell.get('cell_type') == 'code' and is_test_cell(cell.get('source', ''), cell.get('outputs')): del cell['source']
