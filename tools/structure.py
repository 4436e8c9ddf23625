#!/usr/bin/env python
"""Print the package's modules with their line counts and the imports between them, and any import circle.

    python tools/structure.py            # this checkout's tpu_vision/
    python tools/structure.py --rev REV  # the package as it was at a git revision (e.g. 07e7315)

Imports are read with `ast` (nothing is imported): `from .x import ...`, `from tpu_vision.x import ...`,
`import tpu_vision.x`, at module level and inside functions (a function-level import is marked `(lazy)`).
Exit 1 when the imports form a circle (counting those inside functions, except the CLI's).
"""
import argparse, ast, subprocess, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SKIP = {'_modidx', '__init__'}

def sources(rev=None) -> dict:
    "`{module: source}` for the package at `rev` (None: the working tree)"
    if rev is None: return {p.stem: p.read_text() for p in sorted((ROOT/'tpu_vision').glob('*.py'))}
    names = subprocess.run(['git', 'ls-tree', '--name-only', f'{rev}:tpu_vision'], cwd=ROOT, capture_output=True,
                           text=True, check=True).stdout.split()
    return {n[:-3]: subprocess.run(['git', 'show', f'{rev}:tpu_vision/{n}'], cwd=ROOT, capture_output=True, text=True,
                                   check=True).stdout for n in names if n.endswith('.py')}

def imports(src:str, mods) -> dict:
    "`{module: lazy}` imported by `src` among `mods`; lazy when every import of it is inside a function"
    found = {}
    def visit(node, lazy):
        for ch in ast.iter_child_nodes(node):
            inner = lazy or isinstance(ch, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            names = []
            if isinstance(ch, ast.ImportFrom):
                base = ch.module or ''
                if ch.level == 1: names = [base] if base else [a.name for a in ch.names]
                elif base.startswith('tpu_vision.'): names = [base.split('.')[1]]
                elif base == 'tpu_vision': names = [a.name for a in ch.names]
            elif isinstance(ch, ast.Import):
                names = [a.name.split('.')[1] for a in ch.names if a.name.startswith('tpu_vision.')]
            for n in names:
                if n in mods: found[n] = found.get(n, True) and inner
            visit(ch, inner)
    visit(ast.parse(src), False)
    return found

def circles(graph) -> list:
    "Strongly connected groups of more than one module in `graph` (module-level edges only)"
    index, low, stack, on, out, i = {}, {}, [], set(), [], [0]
    def strong(v):
        index[v] = low[v] = i[0]; i[0] += 1; stack.append(v); on.add(v)
        for w in graph.get(v, ()):
            if w not in index: strong(w); low[v] = min(low[v], low[w])
            elif w in on: low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            grp = []
            while True:
                w = stack.pop(); on.discard(w); grp.append(w)
                if w == v: break
            if len(grp) > 1: out.append(sorted(grp))
    for v in graph:
        if v not in index: strong(v)
    return out

def graphs(srcs:dict) -> tuple:
    "`(graph, every)`: each module's imports at module level, and counting those inside functions (not the CLI's)"
    mods = [m for m in srcs if m not in SKIP]
    graph, every = {}, {}
    for m in mods:
        imp = imports(srcs[m], set(mods) - {m})
        graph[m] = [n for n, lazy in imp.items() if not lazy]
        every[m] = [n for n in imp if m != 'cli' or n == 'all']   # the CLI's lazy imports are its commands
    return graph, every

def report(rev=None) -> int:
    srcs = sources(rev)
    mods = [m for m in srcs if m not in SKIP]
    print(f"== tpu_vision at {rev or 'the working tree'}: {len(mods)} modules, "
          f"{sum(len(srcs[m].splitlines()) for m in mods)} lines")
    for m in sorted(mods, key=lambda m: -len(srcs[m].splitlines())):
        imp = imports(srcs[m], set(mods) - {m})
        arrows = ', '.join(sorted(n + (' (lazy)' if lazy else '') for n, lazy in imp.items())) or '-'
        print(f"{m:12s} {len(srcs[m].splitlines()):5d}  imports: {arrows}")
    graph, every = graphs(srcs)
    cs, lz = circles(graph), circles(every)
    show = lambda cs: '; '.join(' <-> '.join(c) for c in cs) if cs else 'none'
    print(f'import circles: {show(cs)}; counting imports inside functions too: {show(lz)}')
    return 1 if cs or lz else 0

if __name__ == '__main__':
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--rev', help='a git revision (default: the working tree)')
    sys.exit(report(p.parse_args().rev))
