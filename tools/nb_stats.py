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
  other code, usually a test that needs earlier cells: keep imports in the hidden import cell at the top (limit 0).
"""
import ast, json, re, sys, glob, statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMITS = dict(median_cell_lines=8, long_lines=0, undocumented_signatures=0, docs_exec_cells=0)   # --check: today's figures; lower them as cells shrink

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

def stats(only=()):
    sizes,long,undoc,showdoc,docx = [],0,[],0,[]
    for nb in sorted(glob.glob(str(ROOT/'nbs'/'*.ipynb'))):
        if only and Path(nb).stem not in only: continue
        docx += docs_exec_cells(nb)
        showdoc += Path(nb).read_text().count('show_doc(')
        for src in exported_cells(nb):
            code = [l for l in src.splitlines() if l.strip() and not l.strip().startswith('#|')]
            sizes.append(len(code)); long += sum(len(l) > 120 for l in code)
            undoc += [f'{Path(nb).stem}:{n}' for n in undocumented(src)]
    return dict(exported_cells=len(sizes), median_cell_lines=statistics.median(sizes) if sizes else 0,
                max_cell_lines=max(sizes, default=0), long_lines=long, undocumented_signatures=len(undoc),
                show_doc_calls=showdoc, docs_exec_cells=len(docx), undocumented=undoc, docs_exec=docx)

if __name__ == '__main__':
    only = [a for a in sys.argv[1:] if not a.startswith('--')]
    s = stats(only)
    for k,v in s.items():
        if k not in ('undocumented', 'docs_exec'): print(f'{k:>24}: {v}')
    if s['undocumented']: print(' '*26 + ', '.join(s['undocumented']))
    if s['docs_exec']: print('  docs build executes:', ', '.join(s['docs_exec']))
    bad = [f'{k} = {s[k]} (limit {v})' for k,v in LIMITS.items() if s[k] > v]
    if '--check' in sys.argv and bad and not only: print('nb_stats: worse than the limits:', '; '.join(bad)); sys.exit(1)
