#!/usr/bin/env python
"""Build README.md and a local docs preview from the notebooks, without Quarto.

    python tools/build_docs.py readme        # nbs/index.ipynb -> README.md
    python tools/build_docs.py site [OUT]    # the docs preview -> OUT/ (default _site/)

`nbdev-docs` (Quarto) builds the published site; Quarto cannot be installed everywhere, so `site` takes the same
nbdev-processed notebooks (`nbdev-proc-nbs`: show_doc API reference, links from backticked names, test cells
dropped by tools/nbdev_procs.py) and renders them with MkDocs + Material + mkdocs-jupyter (tools/mkdocs.yml):
a sidebar of pages, a table of contents per page, search. Open OUT/index.html in a browser; search needs a web
server: `python -m http.server -d _site`.
"""
import json, re, shutil, sys, html
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NBS = ROOT/'nbs'

def _directives(src): return [l for l in src.splitlines() if l.startswith('#|')]

def _out_text(o):
    if o.get('output_type') == 'stream': return ''.join(o['text'])
    d = o.get('data', {})
    if 'text/markdown' in d: return None
    if 'text/plain' in d: return ''.join(d['text/plain'])
    return None

def readme():
    "Write README.md from nbs/index.ipynb: markdown as is, code fenced, text outputs fenced; hidden cells skipped"
    nb, out = json.loads((NBS/'index.ipynb').read_text()), []
    for c in nb['cells']:
        src = ''.join(c['source'])
        if any(re.match(r'#\|\s*(hide|eval:\s*false)', l) for l in _directives(src)): continue
        if c['cell_type'] == 'markdown': out.append(src); continue
        code = '\n'.join(l for l in src.splitlines() if not l.startswith('#|')).strip()
        if code: out.append(f'```python\n{code}\n```')
        texts = [t for t in map(_out_text, c.get('outputs', [])) if t]
        if texts: out.append('```\n' + ''.join(texts).rstrip() + '\n```')
    txt = '<!-- Generated from nbs/index.ipynb by tools/build_docs.py: edit the notebook, not this file. -->\n\n'
    (ROOT/'README.md').write_text(txt + '\n\n'.join(out) + '\n')

def _docs_url():
    "The published site (pyproject.toml's Documentation URL): the preview makes links into it local"
    import tomllib
    return tomllib.loads((ROOT/'pyproject.toml').read_text())['project']['urls']['Documentation'].rstrip('/') + '/'

def _local_link(m):
    "A link into the published site as a link to the preview's page, with mkdocs-jupyter's heading id"
    from mkdocs_jupyter.utils import slugify
    page,_,anchor = m.group(1).partition('#')
    return f"]({page}#{slugify(anchor)})" if anchor else f"]({page})"

def _localize(md):
    "Links into the published site made local; pandoc's `[text](url){attrs}` (show_doc's source link) as HTML"
    md = re.sub(r'\]\(' + re.escape(_docs_url()) + r'([^)\s]*)\)', _local_link, md)
    return re.sub(r'\[([^\]]+)\]\(([^)\s]+)\)\{([^}]*)\}', r'<a href="\2" \3>\1</a>', md)

def _code_in_headings(md):
    "`x` in a heading as <code>x</code>: mkdocs-jupyter drops backticked text when it builds the table of contents"
    code, lines, fence = (lambda m: f'<code>{html.escape(m.group(1))}</code>'), md.split('\n'), False
    for i,l in enumerate(lines):
        if l.startswith('```'): fence = not fence
        elif not fence and re.match(r'#{1,6} ', l): lines[i] = re.sub(r'`([^`]+)`', code, l)
    return '\n'.join(lines)

def _md_out(c):
    "The markdown an `#| output: asis` cell shows (a `show_doc`'s, or what it printed, as Quarto reads it), or None"
    if not re.search(r'^#\|\s*output:\s*asis', ''.join(c['source']), re.M): return None
    for o in c.get('outputs', []):
        md = o.get('data', {}).get('text/markdown') or (o.get('text') if o.get('name') == 'stdout' else None)
        if md: return ''.join(md)

def _stage(nb):
    "A processed notebook as mkdocs-jupyter reads it: front matter as title, `show_doc` output as markdown, no directives"
    d, cells = json.loads(nb.read_text()), []
    fm = _frontmatter(''.join(d['cells'][0]['source'])) if d['cells'] else None
    if fm: d['cells'][0] = dict(cell_type='markdown', metadata={}, source=f"# {fm['title']}\n\n> {fm.get('description', '')}")
    for c in d['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'code':
            echo = re.search(r'^#\|\s*echo:\s*false', src, re.M)
            code = '\n'.join(l for l in src.splitlines() if not l.startswith('#|')).strip()
            if (md := _md_out(c)) is not None:   # its code, unless `echo: false`, then its output as markdown
                if code and not echo and 'show_doc' not in code:
                    cells.append(dict(cell_type='code', metadata={}, source=code, outputs=[], execution_count=None))
                c = dict(cell_type='markdown', metadata={}, source=md)
            else:
                c['metadata'] = {'tags': ['remove_input']} if echo else {}
                c['source'] = code
                if not c['source'] and not c.get('outputs'): continue
        if c['cell_type'] == 'markdown':
            md = '\n'.join(l for l in ''.join(c['source']).splitlines() if not l.startswith('#|'))   # `#| export`
            c['source'] = _table_pipes(_code_in_headings(_localize(md)))
        c.pop('id', None); cells.append(c)
    d['cells'], d['nbformat_minor'] = cells, 4   # nbformat 4.4: cells without ids are valid
    return d, (fm or {}).get('output-file', nb.stem + '.html')

def _table_pipes(md):
    "`\\|` in a code span of a table row as `|`: pandoc (Quarto) and GitHub read it so; Python-Markdown shows the backslash"
    fix = lambda row: re.sub(r'`[^`]*`', lambda m: m.group(0).replace('\\|', '|'), row)
    return '\n'.join(fix(l) if l.lstrip().startswith('|') else l for l in md.split('\n'))

def _page_md(d):
    "A staged notebook as the Markdown page llms.txt links to (`page.html.md`, as Quarto's `keep-md` writes)"
    out = []
    for c in d['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'markdown': out.append(src); continue
        if 'remove_input' not in c.get('metadata', {}).get('tags', []) and src.strip(): out.append(f'```python\n{src}\n```')
        texts = [t for t in map(_out_text, c.get('outputs', [])) if t]
        if texts: out.append('```\n' + ''.join(texts).rstrip() + '\n```')
    return '\n\n'.join(out) + '\n'

# jupyter-server-mathjax ships MathJax 2 with the STIX-Web fonts only: MathJax's default TeX font would be asked for
# (a 404 on jax/output/HTML-CSS/fonts/TeX/fontdata.js) and the formulas drawn in whatever font the browser has.
# tools/mkdocs.yml's `custom_mathjax_url` loads this config after its own.
# Its fast preview would draw each formula first in the TeX fonts, which are not there either.
MATHJAX_LOCAL = """MathJax.Hub.Config({"HTML-CSS": {availableFonts: ["STIX-Web"], preferredFont: "STIX-Web", webFont: "STIX-Web",
                                 imageFont: null}, SVG: {font: "STIX-Web"}, "fast-preview": {disabled: true}});
MathJax.Ajax.loadComplete("[MathJax]/config/local/tpu_vision.js");
"""

def _mathjax(site_dir):
    "MathJax 2 (PyPI's jupyter-server-mathjax, the notebook server's copy) into the preview: formulas render offline"
    import importlib.util
    spec = importlib.util.find_spec('jupyter_server_mathjax')
    if spec is None: sys.exit("tools/build_docs.py site: MathJax is missing; install the dev extra: pip install -e '.[dev]'")
    mj = Path(site_dir)/'assets'/'mathjax'
    shutil.copytree(Path(spec.origin).parent/'static', mj, dirs_exist_ok=True)
    (mj/'config'/'local').mkdir(parents=True, exist_ok=True)
    (mj/'config'/'local'/'tpu_vision.js').write_text(MATHJAX_LOCAL)

def _frontmatter(src):
    "The YAML front matter nbdev puts in a processed notebook's first cell, or None"
    m = re.match(r'\s*---\n(.*?)\n---', src, re.S)
    if not m: return None
    import yaml
    return {k:str(v) for k,v in (yaml.safe_load(m.group(1)) or {}).items()}

def site(out=None):
    "Build the preview: nbdev processes the notebooks (`nbdev-proc-nbs`), MkDocs renders them into `out`"
    import os, subprocess, yaml, importlib.util
    from nbdev.serve import proc_nbs
    if not importlib.util.find_spec('mkdocs_jupyter'):
        sys.exit("tools/build_docs.py site: MkDocs is missing; install the dev extra: pip install -e '.[dev]'")
    out = Path(out or ROOT/'_site').absolute()
    os.chdir(ROOT)
    sys.path.insert(0, str(ROOT/'tools'))   # `doc_procs` (pyproject.toml) names tools/nbdev_procs.py
    cache = proc_nbs(NBS, n_workers=0)
    src = ROOT/'_proc_site'
    shutil.rmtree(src, ignore_errors=True); (src/'docs').mkdir(parents=True)
    nav, mds = [], {}
    for nb in sorted(cache.glob('*.ipynb'), key=lambda p: (p.stem != 'index', p.stem)):
        d, page = _stage(nb)
        (src/'docs'/page).with_suffix('.ipynb').write_text(json.dumps(d))
        nav.append(Path(page).with_suffix('.ipynb').name)
        mds[page + '.md'] = _page_md(d)
    tmp = out.with_name(out.name + '.partial')   # `out` is replaced only by a whole site
    cfg = dict(INHERIT=str(ROOT/'tools'/'mkdocs.yml'), docs_dir='docs', site_dir=str(tmp), nav=nav)
    (src/'mkdocs.yml').write_text(yaml.safe_dump(cfg))
    subprocess.run([sys.executable, '-m', 'mkdocs', 'build', '-q', '-f', str(src/'mkdocs.yml')], check=True,
                   env={**os.environ, 'NO_MKDOCS_2_WARNING': '1'})
    for page in tmp.glob('*.html'): page.write_text(_unique_ids(page.read_text()))
    for name, md in mds.items(): (tmp/name).write_text(md)   # what llms.txt links to, as the published site has it
    shutil.copy(NBS/'llms.txt', tmp/'llms.txt')
    _mathjax(tmp)
    shutil.rmtree(out, ignore_errors=True); tmp.rename(out)
    return out

def _unique_ids(page):
    "A heading id seen before on the page gets `_1`, `_2`...: the ids the table of contents links to (Python-Markdown's)"
    seen = set()
    def fix(m):
        hid, n = m.group(2), 1
        if hid in seen:
            while f'{hid}_{n}' in seen: n += 1
            hid = f'{hid}_{n}'
        seen.add(hid)
        return f'{m.group(1)}{hid}{m.group(3)}{hid}"'
    return re.sub(r'(<h[1-6] id=")([^"]+)(">.*?<a class="anchor-link" href="#)[^"]+"', fix, page)

if __name__ == '__main__':
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'readme': readme()
    elif cmd == 'site': print(site(sys.argv[2] if len(sys.argv) > 2 else None)/'index.html')
    else: sys.exit(__doc__)
