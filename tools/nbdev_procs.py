"""nbdev doc processors of this project (`doc_procs` in pyproject.toml; run `PYTHONPATH=tools nbdev-docs`).

A *test cell* is a code cell that checks something (an `assert`, or a call of a `test_*` function such as
fastcore.test's `test_eq`, `test_fail`, `test_close`, anywhere in it) and shows nothing (no stored output). It proves
the code above it to `nbdev-test`; a reader skips it, so the docs leave it out -- unless the prose introduces it (the
markdown cell just before ends with a colon: "as a forward hook shows:"), where it is part of the story. A cell that
checks and also shows a result (a table, a figure, a printout) is an example and stays.
"""
import ast, re, textwrap
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

# --- show_doc entries as fastai's docs show them: each name once, parameters as a Type / Default / Details table

def _split_comment(line):
    "`(code, comment)` of one signature line: the comment starts at the first `#` outside quotes"
    q = None
    for i,ch in enumerate(line):
        if q:
            if ch == q and line[i-1] != '\\': q = None
        elif ch in '\'"': q = ch
        elif ch == '#': return line[:i].rstrip(), line[i+1:].strip()
    return line.rstrip(), ''

def _params(lines):
    "`[(name, annotation, default, details)]` of the parameter lines of a signature nbdev's `show_doc` wrote"
    code, notes = [], []
    for l in lines:
        c, note = _split_comment(l)
        c = c.strip().rstrip(',')
        if c: code.append(c); notes.append(note)
    try: fn = ast.parse(f"def f({', '.join(code)}): pass").body[0].args
    except SyntaxError: return None
    named = [*fn.posonlyargs, *fn.args]
    defaults = [None]*(len(named) - len(fn.defaults)) + list(fn.defaults)
    out = [(a.arg, a.annotation, d) for a,d in zip(named, defaults)]
    if fn.vararg: out.append(('*' + fn.vararg.arg, fn.vararg.annotation, None))
    out += [(a.arg, a.annotation, d) for a,d in zip(fn.kwonlyargs, fn.kw_defaults)]
    if fn.kwarg: out.append(('**' + fn.kwarg.arg, fn.kwarg.annotation, None))
    # a comment documents the last parameter of its line
    by_line, names = {}, [o[0] for o in out]
    for c, note in zip(code, notes):
        last = [n for n in names if re.search(r'(^|[\s,(*])' + re.escape(n.lstrip('*')) + r'\s*(:|=|,|$)', c)]
        if note and last: by_line[last[-1]] = note
    show = lambda t: '' if t is None else ast.unparse(t)
    return [(n, show(a), show(d), by_line.get(n, '')) for n,a,d in out]

def _cell(s): return s.replace('|', '\\|').replace('*', '\\*')

def sig_table(md:str) -> str:
    "`show_doc` markdown with its signature on a few lines and its docments as a Type / Default / Details table"
    m = re.search(r'```python\n((?:async )?(?:def|class) [\w.]+)\(\n(.*?)\n\)(->.*?)?:\n```', md, re.S)
    if not m: return md
    ps = _params(m.group(2).splitlines())
    if not ps or not any(p[3] for p in ps): return md
    head, ret = m.group(1), (m.group(3) or '').replace('->', ' -> ')
    args = ', '.join(n + (f'={d}' if d else '') for n,_,d,_ in ps)
    sig = '\n'.join(textwrap.wrap(f'{head}({args}){ret}', 76, subsequent_indent=' '*4, break_on_hyphens=False))
    rows = ['|    | **Type** | **Default** | **Details** |', '| -- | -------- | ----------- | ----------- |']
    rows += [f"| {_cell(n)} | {_cell(a)} | {_cell(d)} | {_cell(t)} |" for n,a,d,t in ps]
    return md[:m.start()] + f'```python\n{sig}\n```\n\n' + '\n'.join(rows) + '\n' + md[m.end():]

def _sd_call(src):
    "The `show_doc(...)` call a cell makes (nbdev's or the author's), or None"
    m = re.search(r'^show_doc\((.*)\)\s*$', src, re.M)
    return m and m.group(1).strip()

class api_docs(Processor):
    "nbdev processor: each `show_doc` entry once per page (an explicit one after nbdev's own is dropped), docments as a table"
    def begin(self): self.seen = set()
    def __call__(self, cell):
        if cell.cell_type != 'code' or not cell.get('source'): return
        if (call := _sd_call(cell.source)) is None: return
        name = call.split(',')[0].strip()
        if name in self.seen: del cell['source']; return
        self.seen.add(name)
        for o in cell.get('outputs', []):
            d = o.get('data', {})
            if 'text/markdown' in d:
                md = d['text/markdown']
                d['text/markdown'] = sig_table(''.join(md) if isinstance(md, list) else md)

# --- links only to documented names

def unlink_private(md:str) -> str:
    "Links nbdev made to private names (`_x`, `Class._x`: no entry documents them) back to plain code"
    return re.sub(r'\[`((?:[\w.]+\.)?_\w*)`\]\([^)\s]+\)', r'`\1`', md)

class no_private_links(Processor):
    "nbdev processor: a backticked private name is code, not a link to the top of its page"
    def __call__(self, cell):
        if cell.cell_type == 'markdown' and cell.get('source'): cell.source = unlink_private(cell.source)
