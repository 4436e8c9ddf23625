#!/usr/bin/env python
"""Build README.md and a local docs site from the notebooks, without Quarto.

    python tools/build_docs.py readme        # nbs/index.ipynb -> README.md
    python tools/build_docs.py site [OUT]    # nbdev-processed notebooks -> OUT/ (default _site/), HTML

`nbdev-docs` (Quarto) builds the published site; Quarto cannot be installed everywhere, so `site` renders the
same nbdev-processed notebooks (show_doc API reference, prose, stored outputs) with nbconvert and adds a
navigation bar. Open OUT/index.html in a browser.
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

def _page(nb): return 'index.html' if nb.stem == 'index' else re.sub(r'^\d+[a-z]?_', '', nb.stem) + '.html'

def _title(nb):
    for c in json.loads(nb.read_text())['cells']:
        fm = _frontmatter(''.join(c['source']))
        if fm and fm.get('title'): return fm['title']
        if c['cell_type'] == 'markdown':
            m = re.search(r'^#\s+(.+)$', ''.join(c['source']), re.M)
            if m: return m.group(1).strip()
            m = re.search(r'^title:\s*"?(.+?)"?$', ''.join(c['source']), re.M)
            if m: return m.group(1).strip()
    return nb.stem

_KEYS = {'markdown': {'cell_type','id','metadata','source','attachments'},
         'code': {'cell_type','id','metadata','source','outputs','execution_count'}, 'raw': {'cell_type','id','metadata','source'}}

def _frontmatter(src):
    "Title and description from the YAML front matter nbdev puts in a processed notebook's first cell"
    m = re.match(r'\s*---\n(.*?)\n---', src, re.S)
    if not m: return None
    import yaml
    return {k:str(v) for k,v in (yaml.safe_load(m.group(1)) or {}).items()}

def _load(fn):
    "A processed notebook as an nbformat node: front matter as a heading, directives and nbdev's extra keys removed"
    import nbformat
    d = json.loads(Path(fn).read_text())
    cells = []
    for c in d['cells']:
        src = ''.join(c['source'])
        fm = _frontmatter(src) if not cells else None
        if fm is not None:
            c = dict(cell_type='markdown', id='frontmatter', metadata={}, source=f"# {fm.get('title','')}\n\n> {fm.get('description','')}")
        c = {k:v for k,v in c.items() if k in _KEYS[c['cell_type']]}
        dirs = _directives(src)
        c['metadata'] = {'tags': ['remove_input']} if any(re.match(r'#\|\s*echo:\s*false', l) for l in dirs) else {}
        if c['cell_type'] == 'code':
            c['source'] = '\n'.join(l for l in src.splitlines() if not l.startswith('#|'))
            c.setdefault('execution_count', None); c.setdefault('outputs', [])
        cells.append(c)
    d['cells'] = cells
    return nbformat.reads(json.dumps(d), as_version=4)

NAV_CSS = """<style>.tv-nav{position:sticky;top:0;z-index:10;background:#1f3b57;padding:.5em 1em;font-family:sans-serif}
.tv-nav a{color:#fff;margin-right:1.2em;text-decoration:none}.tv-nav a.here{font-weight:bold;text-decoration:underline}</style>"""

def site(out=None):
    "Render every processed notebook to OUT/<page>.html with a navigation bar linking all pages"
    import os
    from nbdev.config import get_config
    from nbdev.serve import proc_nbs
    from nbconvert import HTMLExporter
    out = Path(out or ROOT/'_site')
    os.chdir(ROOT)
    cache = proc_nbs(NBS, n_workers=0)
    nbs = sorted(cache.glob('*.ipynb'), key=lambda p: (p.stem != 'index', p.stem))
    pages = [(_title(nb), _page(nb)) for nb in nbs]
    if out.exists(): shutil.rmtree(out)
    out.mkdir(parents=True)
    from traitlets.config import Config
    c = Config(); c.TagRemovePreprocessor.remove_input_tags = {'remove_input'}; c.TagRemovePreprocessor.enabled = True
    c.HTMLExporter.exclude_input_prompt = True; c.HTMLExporter.exclude_output_prompt = True
    exp = HTMLExporter(template_name='lab', config=c)
    for nb,(title,page) in zip(nbs, pages):
        body,_ = exp.from_notebook_node(_load(nb))
        here = lambda p: ' class="here"' if p == page else ''
        nav = '<nav class="tv-nav">' + ''.join(f'<a href="{p}"{here(p)}>{html.escape(t)}</a>' for t,p in pages) + '</nav>'
        body = re.sub(r'(<body[^>]*>)', lambda m: m.group(1) + NAV_CSS + nav, body, count=1)
        body = re.sub(r'<title>.*?</title>', f'<title>{html.escape(title)} – tpu_vision</title>', body, count=1, flags=re.S)
        (out/page).write_text(body)
    return out

if __name__ == '__main__':
    cmd = sys.argv[1] if len(sys.argv) > 1 else ''
    if cmd == 'readme': readme()
    elif cmd == 'site': print(site(sys.argv[2] if len(sys.argv) > 2 else None)/'index.html')
    else: sys.exit(__doc__)
