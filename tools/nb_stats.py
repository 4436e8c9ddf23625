#!/usr/bin/env python
"""How fastai-sized the notebooks are: exported cell sizes, long lines, documented signatures, `show_doc` calls.

    python tools/nb_stats.py            # print the figures
    python tools/nb_stats.py --check    # also exit 1 if a figure is worse than its limit below (CI runs this)
    python tools/nb_stats.py 03_learner 03a_models   # the figures of these notebooks only (no limits checked)

Figures (exported cells only, `#|` lines and blank lines not counted):
- median code lines per exported cell (fastcore's 01_basics: 5; fastai's 13_callback.core: about 6);
- exported lines over 120 characters;
- public functions/methods with two or more parameters (besides self/cls) whose parameters carry no docments comment;
- `show_doc` calls (methods need them to be rendered);
- visible cells that the docs build would execute (nbdev runs every cell holding an import) although they also hold
  other code, usually a test that needs earlier cells: keep imports in the hidden import cell at the top (limit 0);
- definitions followed by their test or example: exported cells that define a function or class, followed (before the
  next exported cell) by a code cell that is more than `show_doc` (fastcore's 01_basics: 86 %), per notebook;
- median docstring length of the exported functions and classes (fastcore: 54 characters, fastai: 58);
- definitions not followed by their test or example (the limit: what the notebooks reached).
- private names used outside their module: `from .x import _name` or `x._name` in the package, `_name` of tpu_vision
  imported by bench/ scripts (limit 0: a name another module needs is public API).
"""
import ast, json, re, sys, glob, statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMITS = dict(median_cell_lines=6, long_lines=0, undocumented_signatures=0, docs_exec_cells=0, private_crossings=0,
              defs_not_followed=0, median_docstring=54)   # --check: today's figures; lower them as cells shrink

def exported_cells(nb):
    for c in json.loads(Path(nb).read_text())['cells']:
        src = ''.join(c.get('source', ''))
        head = '\n'.join(src.splitlines()[:3]).replace('#|export', '#| export')
        if c['cell_type'] == 'code' and '#| export' in head: yield src

def undocumented(src):
    "Names of public defs in `src` with 2+ parameters and no `#` comment on any parameter line"
    try: tree = ast.parse(src)
    except SyntaxError: return []
    lines,out = src.splitlines(),[]
    for n in ast.walk(tree):
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) or n.name.startswith('_'): continue
        args = [a for a in n.args.args + n.args.kwonlyargs if a.arg not in ('self', 'cls')]
        if len(args) < 2: continue
        sig = lines[n.lineno-1:(n.body[0].lineno-1 if n.body else n.lineno)]
        if not any('#' in l.split(')')[0] or re.search(r',\s*#', l) for l in sig): out.append(n.name)
    return out

def docs_exec_cells(nb):
    "Visible, non-exported cells of `nb` that nbdev's docs build executes and that hold more than imports and show_doc"
    import warnings; warnings.simplefilter('ignore')
    from nbdev.process import NBProcessor
    from nbdev.processors import _do_eval
    out = []
    for c in NBProcessor(nb, rm_directives=False, process=True).nb.cells:
        d = c.directives_ or {}
        if c.cell_type != 'code' or 'hide' in d or d.keys() & {'export', 'exports', 'exporti', 'exec_doc'}: continue
        if not _do_eval(c): continue
        other = [t for t in c.parsed_() or [] if not isinstance(t, (ast.Import, ast.ImportFrom))
                 and not (isinstance(t, ast.Expr) and getattr(getattr(t.value, 'func', None), 'id', None) == 'show_doc')]
        if other: out.append(f'{Path(nb).stem}:cell {c.idx_}')
    return out

def _defs(src):
    "Docstrings of the top-level functions and classes `src` defines ('' for none); None if it defines none"
    try: tree = ast.parse(src)
    except SyntaxError: return None
    ds = [ast.get_docstring(n) or '' for n in tree.body if isinstance(n, (ast.FunctionDef, ast.ClassDef))]
    return ds or None

def _shows_only(src):
    "Is `src` only `show_doc` calls and imports?"
    try: tree = ast.parse(src)
    except SyntaxError: return False
    return all(isinstance(t, (ast.Import, ast.ImportFrom)) or (isinstance(t, ast.Expr) and
               getattr(getattr(t.value, 'func', None), 'id', None) == 'show_doc') for t in tree.body)

def followed(nb):
    "(definitions followed by a test or example, definitions, docstrings) of notebook `nb`'s exported cells"
    cells = [c for c in json.loads(Path(nb).read_text())['cells'] if c['cell_type'] == 'code']
    srcs = [''.join(c['source']) for c in cells]
    exp = ['#| export' in '\n'.join(s.splitlines()[:3]) for s in srcs]
    n = ok = 0; docs = []
    for i,(s,e) in enumerate(zip(srcs, exp)):
        ds = _defs(s) if e else None
        if ds is None: continue
        n += 1; docs += ds
        for s2,e2 in zip(srcs[i+1:], exp[i+1:]):
            if e2: break
            if s2.strip() and not s2.lstrip().startswith('#| hide\nfrom') and not _shows_only(s2): ok += 1; break
    return ok, n, docs

_PRIV = re.compile(r'from (?:\.|tpu_vision\.)(\w+) import (\([^)]*\)|[^\n]*)')
_ALIAS = re.compile(r'(?:import tpu_vision\.|from (?:tpu_vision|\.) import )(\w+)(?: as (\w+))?')
def private_crossings():
    "`file<-module.name` for each private name of a tpu_vision module used in another module or in a bench/ script"
    mods,out = {p.stem for p in (ROOT/'tpu_vision').glob('*.py')},[]
    files = [p for p in (ROOT/'tpu_vision').glob('*.py') if p.name != '_modidx.py'] + list((ROOT/'bench').rglob('*.py'))
    for p in files:
        txt = p.read_text()
        for m,names in _PRIV.findall(txt):
            if m == p.stem or m not in mods: continue
            out += [f'{p.stem}<-{m}.{n}' for n in re.findall(r'\b(_[a-z]\w*)', re.sub(r'#.*', '', names))]
        for m,a in _ALIAS.findall(txt):
            a = a or m
            if m in mods and m != p.stem: out += [f'{p.stem}<-{m}.{n}' for n in re.findall(rf'\b{a}\.(_[a-z]\w*)', txt)]
    return sorted(set(out))

def stats(only=()):
    sizes,long,undoc,showdoc,docx,fol,docs = [],0,[],0,[],{},[]
    for nb in sorted(glob.glob(str(ROOT/'nbs'/'*.ipynb'))):
        if only and Path(nb).stem not in only: continue
        docx += docs_exec_cells(nb)
        ok,n,ds = followed(nb); docs += ds
        if n: fol[Path(nb).stem] = f'{ok}/{n}'

        showdoc += Path(nb).read_text().count('show_doc(')
        for src in exported_cells(nb):
            code = [l for l in src.splitlines() if l.strip() and not l.strip().startswith('#|')]
            sizes.append(len(code)); long += sum(len(l) > 120 for l in code)
            undoc += [f'{Path(nb).stem}:{n}' for n in undocumented(src)]
    return dict(exported_cells=len(sizes), median_cell_lines=statistics.median(sizes) if sizes else 0,
                max_cell_lines=max(sizes, default=0), long_lines=long, undocumented_signatures=len(undoc),
                show_doc_calls=showdoc, docs_exec_cells=len(docx),
                defs_followed=f"{sum(int(v.split('/')[0]) for v in fol.values())}/{sum(int(v.split('/')[1]) for v in fol.values())}",
                defs_not_followed=sum(int(v.split('/')[1]) - int(v.split('/')[0]) for v in fol.values()),
                median_docstring=statistics.median(len(d) for d in docs if d) if any(docs) else 0,
                private_crossings=len(priv := private_crossings()), followed_by_nb=fol, undocumented=undoc, docs_exec=docx,
                private=priv)

if __name__ == '__main__':
    only = [a for a in sys.argv[1:] if not a.startswith('--')]
    s = stats(only)
    for k,v in s.items():
        if k not in ('undocumented', 'docs_exec', 'private', 'followed_by_nb'): print(f'{k:>24}: {v}')
    print(' '*10 + 'followed, per nb: ' + ', '.join(f'{k} {v}' for k,v in s['followed_by_nb'].items()))
    if s['private']: print(' '*10 + 'private names used elsewhere: ' + ', '.join(s['private']))
    if s['undocumented']: print(' '*26 + ', '.join(s['undocumented']))
    if s['docs_exec']: print('  docs build executes:', ', '.join(s['docs_exec']))
    bad = [f'{k} = {s[k]} (limit {v})' for k,v in LIMITS.items() if s[k] > v]
    if '--check' in sys.argv and bad and not only: print('nb_stats: worse than the limits:', '; '.join(bad)); sys.exit(1)
