"""The docs: the deploy workflow runs what the pinned nbdev has and names files that exist; the README's links work on
GitHub and PyPI; the local preview (MkDocs over nbdev's processed notebooks) gives a reader a sidebar, a table of
contents, search, names linked to their docs and no test cells, checked in headless Chromium."""
import asyncio, html, http.server, json, os, re, shlex, shutil, subprocess, sys, tempfile, threading, time, tomllib
import urllib.request
from functools import partial
from importlib.metadata import distribution
from pathlib import Path
from urllib.parse import urljoin
import pytest, yaml
from filelock import FileLock

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
import build_docs, nbdev_procs

PYPROJECT = tomllib.loads((ROOT/'pyproject.toml').read_text())
WORKFLOW = ROOT/'.github'/'workflows'/'deploy.yaml'

# The inputs each action declares, read from its action.yml at that tag (fastai/workflows/quarto-ghp@master cached pip
# on settings.ini and ran `nbdev_docs`: that is why the workflow spells its steps out). Add an action here after
# reading its action.yml.
ACTION_INPUTS = {
    'actions/checkout@v5': set(),
    'actions/setup-python@v6': {'python-version', 'cache', 'cache-dependency-path'},
    'quarto-dev/quarto-actions/setup@v2': {'version', 'tinytex'},
    'actions/upload-pages-artifact@v5': {'name', 'path', 'retention-days', 'include-hidden-files'},
    'actions/deploy-pages@v5': {'token', 'timeout', 'error_count', 'reporting_interval', 'artifact_name', 'preview'},
}

def _steps(): return [s for j in yaml.safe_load(WORKFLOW.read_text())['jobs'].values() for s in j['steps']]

def _nbdev_pin():
    pins = [r for r in PYPROJECT['project']['optional-dependencies']['dev'] if re.match(r'nbdev\s*==', r)]
    assert pins, 'pyproject.toml: the dev extra does not pin nbdev (nbdev==X.Y.Z)'
    return pins[0].split('==')[1].strip()

def _dev_pins(*names):
    "The `name==version` pins of `names` in the dev extra"
    dev = PYPROJECT['project']['optional-dependencies']['dev']
    return [r for r in dev if re.match(r'[\w-]+\s*==', r) and r.split('==')[0].strip() in names]

def test_workflow_commands_exist_in_pinned_nbdev():
    nbdev = distribution('nbdev')
    assert nbdev.version == _nbdev_pin(), f'installed nbdev {nbdev.version}, pyproject.toml pins {_nbdev_pin()}: run tools/setup.sh'
    scripts = {e.name for e in nbdev.entry_points if e.group == 'console_scripts'}
    ran = []
    for step in _steps():
        for line in (l.strip() for l in step.get('run', '').splitlines()):
            if not line or line.startswith('#'): continue
            argv = shlex.split(line); ran.append(argv[0])
            if argv[0].startswith('nbdev'): assert argv[0] in scripts, f'{WORKFLOW.name} runs {argv[0]}: nbdev {nbdev.version} has no such command'
            elif argv[:4] == ['python', '-m', 'pip', 'install'] and '--index-url' in argv:   # CPU torch at [dev]'s pins
                assert argv[argv.index('--index-url') + 1].endswith('/whl/cpu'), line
                assert set(a for a in argv[4:] if '==' in a) == set(_dev_pins('torch', 'torchvision')), line
            elif argv[:4] == ['python', '-m', 'pip', 'install']:
                extras = re.findall(r'\.\[(\w+)\]', line)
                assert extras and set(extras) <= set(PYPROJECT['project']['optional-dependencies']), f'unknown extra in: {line}'
            else: pytest.fail(f'{WORKFLOW.name} runs {line!r}: tests/test_docs.py does not know how to check it')
    assert 'nbdev-docs' in ran, ran

def test_workflow_actions_and_files():
    for step in _steps():
        if 'uses' not in step: continue
        assert step['uses'] in ACTION_INPUTS, f"{step['uses']}: read its action.yml at that tag, then add it to ACTION_INPUTS"
        assert set(step.get('with', {})) <= ACTION_INPUTS[step['uses']], f"{step['uses']} has no input {set(step['with'])-ACTION_INPUTS[step['uses']]}"
    withs = {s['uses'].split('@')[0]: s.get('with', {}) for s in _steps() if 'uses' in s}
    dep = withs['actions/setup-python']['cache-dependency-path']
    assert (ROOT/dep).is_file(), f'setup-python caches pip on {dep}, which does not exist (it would stop the job)'
    assert withs['actions/upload-pages-artifact']['path'] == PYPROJECT['tool']['nbdev']['doc_path']   # what nbdev-docs writes
    docs_step = next(s for s in _steps() if s.get('run', '').strip() == 'nbdev-docs')
    for p in docs_step['env']['PYTHONPATH'].split(':'): assert (ROOT/p).is_dir(), p
    for proc in PYPROJECT['tool']['nbdev']['doc_procs'].split():   # what nbdev imports: found on that PYTHONPATH?
        mod, name = proc.split(':')
        assert any((ROOT/p/f'{mod}.py').is_file() for p in docs_step['env']['PYTHONPATH'].split(':')), proc
        assert callable(getattr(__import__(mod), name)), proc
    q = yaml.safe_load((ROOT/'nbs'/'_quarto.yml').read_text())
    for css in [q['format']['html']['css']] if isinstance(q['format']['html']['css'], str) else q['format']['html']['css']:
        assert (ROOT/'nbs'/css).is_file(), f'nbs/_quarto.yml names {css}, which does not exist'
    for f in q['metadata-files']: assert f == 'sidebar.yml' or (ROOT/'nbs'/f).is_file(), f  # nbdev-docs writes sidebar.yml

def test_readme_links_are_absolute():
    links = re.findall(r'\]\(([^)\s]+)\)', (ROOT/'README.md').read_text())
    assert links and not [l for l in links if not re.match(r'https?://|#', l)], 'relative links are dead on GitHub and PyPI'

def test_is_test_cell():
    assert nbdev_procs.is_test_cell('test_eq(f(1), 2)\nassert g()')
    assert nbdev_procs.is_test_cell('x = f(1)\nfor o in x: test_close(o, 1)')
    assert not nbdev_procs.is_test_cell('x = f(1)\ntest_eq(x, 2)\nx', outputs=[{'output_type': 'execute_result'}])
    assert not nbdev_procs.is_test_cell('learn.fit(1)')
    assert not nbdev_procs.is_test_cell('%time test_eq(1, 1)')
    md, code = (lambda s: {'cell_type': 'markdown', 'source': s}), (lambda s: {'cell_type': 'code', 'source': s, 'outputs': []})
    cells = [md('Fit it.'), code('test_eq(1, 1)'), md('As a hook shows:'), code('learn.fit(1); test_eq(spy.n, 2)'), code('test_eq(2, 2)')]
    assert nbdev_procs.test_cells(cells) == [1, 4]   # the cell the prose introduces stays

def test_md_without_directives():
    assert nbdev_procs.md_without_directives('#| export\nStart here: `f`.') == 'Start here: `f`.'

# --- the local preview, built once per test run (pytest-xdist workers share it)

@pytest.fixture(scope='session')
def site(tmp_path_factory):
    base = tmp_path_factory.getbasetemp()   # under pytest-xdist, each worker's; their parent is this run's
    out = (base.parent if os.environ.get('PYTEST_XDIST_WORKER') else base)/'docs_site'
    with FileLock(str(out) + '.lock'):
        if not (out/'index.html').exists(): build_docs.site(out)
    return out

@pytest.fixture(scope='session')
def served(site):
    "The preview over HTTP on the loopback (search loads its index with fetch, which file:// pages may not)"
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), partial(http.server.SimpleHTTPRequestHandler, directory=str(site)))
    srv.RequestHandlerClass.log_message = lambda *a: None
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield f'http://127.0.0.1:{srv.server_port}/'
    srv.shutdown()

def _chromium():
    exe = shutil.which('chromium') or shutil.which('chromium-browser') or shutil.which('google-chrome')
    assert exe, 'Chromium is not installed: `apt-get install chromium` (tools/test_deps.sh does it)'
    return exe

FLAGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
         '--disable-component-update', '--disable-sync']

def dom(url, tmp_path):
    "The DOM of `url` after headless Chromium has loaded and rendered it"
    r = subprocess.run([_chromium(), *FLAGS, f'--user-data-dir={tmp_path/"profile"}', '--dump-dom', url],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and '<html' in r.stdout, r.stderr[-2000:]
    return r.stdout

def browser_eval(url, expr, until, timeout=60):
    "Open `url` in headless Chromium and evaluate the JavaScript `expr` (DevTools protocol) until `until(value)`"
    from tornado.websocket import websocket_connect
    prof = Path(tempfile.mkdtemp())
    p = subprocess.Popen([_chromium(), *FLAGS, '--remote-debugging-port=0', f'--user-data-dir={prof}', url],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        t0, port_file = time.time(), prof/'DevToolsActivePort'
        while not (port_file.exists() and port_file.read_text().strip()):
            assert time.time()-t0 < timeout and p.poll() is None, 'Chromium did not open its DevTools port'
            time.sleep(0.1)
        port = port_file.read_text().split()[0]
        page = next(t for t in json.load(urllib.request.urlopen(f'http://127.0.0.1:{port}/json/list')) if t['type'] == 'page')
        async def run():
            ws = await websocket_connect(page['webSocketDebuggerUrl'], max_message_size=2**26)
            for i in range(10**6):
                ws.write_message(json.dumps({'id': i, 'method': 'Runtime.evaluate', 'params': {'expression': expr, 'returnByValue': True}}))
                while (m := json.loads(await ws.read_message())).get('id') != i: pass
                v = m['result'].get('result', {}).get('value')
                if until(v) or time.time()-t0 > timeout: return v
                await asyncio.sleep(0.25)
        return asyncio.run(run())
    finally:
        p.terminate(); p.wait(); shutil.rmtree(prof, ignore_errors=True)

def _docstring(path, name):
    "The docstring of top-level function `name` in the Python file `path`"
    import ast
    return next(ast.get_docstring(n) for n in ast.parse(Path(path).read_text()).body if getattr(n, 'name', None) == name)

def _text(page): return ' '.join(html.unescape(re.sub(r'<[^>]+>', ' ', page)).split())

PAGES = ['index.html', 'device.html', 'data.html', 'cache.html', 'augment.html', 'learner.html', 'models.html',
         'optim.html', 'distill.html', 'export.html', 'edge.html', 'vitis.html', 'parallel.html', 'tune.html',
         'evaluate.html', 'cli.html', 'all.html', 'guides.html', 'test_utils.html']

def test_site_pages(site):
    assert set(PAGES) <= {p.name for p in site.glob('*.html')}
    shown = [p.name for p in site.glob('*.html') if '#| export' in p.read_text()]
    assert not shown, f'a `#| export` markdown directive (module docstring) shows in {shown}'
    assert 'Start here' in (site/'learner.html').read_text()   # the exported markdown cell itself is shown
    docs = [u for u in re.findall(r'\]\((https://tpu-vision\.github\.io/tpu_vision/[^)\s]*)\)', (ROOT/'README.md').read_text())]
    assert docs and all((site/u.rsplit('/', 1)[1].split('#')[0]).exists() for u in docs), 'a README link names no page'

def test_sidebar_lists_every_page(site, tmp_path):
    page = dom((site/'device.html').as_uri(), tmp_path)
    side = page[page.index('md-sidebar--primary'):page.index('md-sidebar--secondary')]
    hrefs = re.findall(r'<a [^>]*href="([^"#]+)"', side)
    assert set(PAGES) - {'device.html'} <= set(hrefs), set(PAGES) - set(hrefs)
    assert re.search(r'md-nav__link--active[^>]*>\s*(<span[^>]*>)?\s*Device', side), 'the sidebar does not mark the current page'

def test_toc_per_page(site, tmp_path):
    page = dom((site/'device.html').as_uri(), tmp_path)
    toc = page[page.index('md-sidebar--secondary'):]
    assert 'Table of contents' in toc
    assert {'#describe', '#finding-a-tpu-without-touching-it'} <= set(re.findall(r'href="(#[^"]+)"', toc))
    assert re.search(r'<h3 id="describe"', page), 'the TOC entry points to no heading'
    for name in PAGES:   # every entry of every page's TOC names its heading and lands on it
        page = (site/name).read_text(); toc = page[page.index('md-sidebar--secondary'):]
        ids = set(re.findall(r' id="([^"]+)"', page))
        for href,label in re.findall(r'<a href="#([^"]+)" class="md-nav__link">\s*<span[^>]*>\s*(.*?)\s*</span>', toc, re.S):
            assert href in ids and re.match(r'\w', label), f'{name}: TOC entry {label!r} -> #{href}'

def test_backticked_name_links_to_its_doc(site, tmp_path):
    index = dom((site/'index.html').as_uri(), tmp_path)
    links = dict((n, h) for h,n in re.findall(r'<a href="([a-z_]+\.html#[^"]+)"[^>]*><code>([^<]+)</code></a>', index))
    assert links.get('image_dls') == 'data.html#image_dls', links
    data = dom(urljoin((site/'index.html').as_uri(), links['image_dls']), tmp_path)
    assert re.search(r'<h3 id="image_dls"', data), 'the link to `image_dls` lands on no heading'

def test_browser_follows_link_to_device_docs(site, tmp_path):
    index = dom((site/'index.html').as_uri(), tmp_path)
    links = re.findall(r'<a[^>]+href="([^"]*device\.html)"[^>]*>(.*?)</a>', index)
    assert links, 'no link to the device page on the index page'
    page = dom(urljoin((site/'index.html').as_uri(), links[0][0]), tmp_path)
    assert re.search(r'<h\d[^>]*>\s*describe', page), 'no heading for `describe` on the device page'
    doc = _docstring(ROOT/'tpu_vision'/'device.py', 'describe')   # as the reader sees it: backticks are <code>
    assert re.sub(r'\s', '', doc.replace('`', '')) in re.sub(r'\s', '', _text(page)), f'the docstring of `describe` is missing: {doc}'

def test_search_finds_describe(site, served):
    idx = json.loads((site/'search'/'search_index.json').read_text())
    assert 'device.html#describe' in {d['location'] for d in idx['docs']}
    hits = browser_eval(served + 'index.html?q=describe',
                        "[...document.querySelectorAll('.md-search-result__item a')].map(a => a.getAttribute('href'))", bool)
    assert hits and any(re.search(r'device\.html(\?[^#]*)?#describe$', h) for h in hits), hits

def test_test_cells_are_not_shown(site):
    page = _text((site/'device.html').read_text())
    cells = [c for c in json.loads((ROOT/'nbs'/'00_device.ipynb').read_text())['cells']
             if not re.search(r'^#\|\s*(hide|export)\s*$', ''.join(c['source']), re.M)]   # as the reader sees them
    drop, shown = set(nbdev_procs.test_cells(cells)), 0
    for i,c in enumerate(cells):
        src = ''.join(c['source'])
        line = max((l for l in src.splitlines() if not l.startswith('#')), key=len, default='')
        if i in drop: assert line and ' '.join(line.split()) not in page, f'a test cell is shown: {line}'
        elif c['cell_type'] == 'code' and len(line) > 30: shown += ' '.join(line.split()) in page
    assert len(drop) >= 5 and shown >= 5, (len(drop), shown)   # the check sees cells at all: the other cells are there

# --- the preview reads like docs.fast.ai: each entry once, parameters in a table, links that land, formulas, llms.txt

def _entries(page):
    "Names of the API entries (`show_doc` headings: the name as plain text, its signature right under it) on `page`"
    return re.findall(r'<h3 id="[^"]+">([\w.]+)<a class="anchor-link"[^>]*>[^<]*</a></h3><div class="highlight">', page)

def test_each_api_entry_once(site):
    for name in PAGES:
        es = _entries((site/name).read_text())
        dup = sorted({e for e in es if es.count(e) > 1})
        assert not dup, f'{name}: shown twice: {dup}'
    assert 'Learner.to_tpu' in _entries((site/'learner.html').read_text())

def test_parameters_as_a_table(site):
    page = (site/'learner.html').read_text()
    entry = page[page.index('<h3 id="learnerto_tpu">'):]
    entry = entry[:entry.index('<h3', 10)]
    sig = _text(entry[:entry.index('</pre>')])
    assert '#' not in sig and re.search(r'precision\s*=', sig), f'parameters are still comments in the signature: {sig[:200]}'
    table = entry[entry.index('<table'):entry.index('</table>')]
    assert all(h in table for h in ('Type', 'Default', 'Details')), table[:300]
    row = next(r for r in re.findall(r'<tr>(.*?)</tr>', table, re.S) if '>precision<' in r)
    assert "'auto'" in html.unescape(row) and 'bf16' in row, row

def test_printed_markdown_is_a_table(site):
    "A cell with `#| output: asis` that prints markdown shows it rendered, as Quarto does (06_export's formats table)"
    page = (site/'export.html').read_text()
    assert '| `pkl` |' not in html.unescape(page), 'the formats table is shown as raw markdown'
    table = page[page.index('<table'):page.index('</table>')]
    assert 'save_vitis' in table and 'tpu-vision[litert]' in html.unescape(table), table[:300]

def test_links_land_on_documented_names(site):
    ids = {p.name: set(re.findall(r' id="([^"]+)"', p.read_text())) for p in site.glob('*.html')}
    bad = []
    for p in site.glob('*.html'):
        page = p.read_text()
        bad += [f'{p.name}: {t}' for t in re.findall(r'<a href="[a-z_0-9]+\.html[^"]*"[^>]*><code>(_[^<]*)</code>', page)]
        bad += [f'{p.name} -> {f}#{a}' for f,a in re.findall(r'href="([a-z_0-9]+\.html)#([^"]+)"', page) if a not in ids.get(f, ())]
    assert not bad, f'{len(bad)} links to undocumented names, e.g. {sorted(set(bad))[:8]}'

def test_formulas_rendered(site, served):
    assert (site/'assets'/'mathjax'/'MathJax.js').is_file()
    js = "(() => { const n = document.querySelectorAll('.MathJax_CHTML, .MathJax, mjx-container').length; " \
         "return n + ' ' + document.body.innerText.includes('$$') + ' ' + MathJax.OutputJax['HTML-CSS'].fontInUse; })()"
    got = browser_eval(served + 'distill.html', js, lambda v: bool(v) and not v.startswith('0 ') and 'undefined' not in v)
    n, raw, font = got.split()
    assert int(n) >= 5 and raw == 'false', f'{n} formulas rendered, raw $$ in the text: {raw}'
    assert font == 'STIX-Web', f'formulas drawn in {font}, not the STIX-Web fonts the preview ships'

def test_formulas_load_offline(site):
    "The preview's MathJax asks only for files it has: each config its URL names, and the STIX-Web fonts they pick"
    page = html.unescape((site/'distill.html').read_text())
    m, mj = re.search(r'<script src="assets/mathjax/MathJax\.js\?config=([^"]+)"', page), site/'assets'/'mathjax'
    assert m and 'local/tpu_vision' in m.group(1).split(','), 'MathJax is not loaded with the preview\'s font config'
    assert all((mj/'config'/f'{c}.js').is_file() for c in m.group(1).split(',')), m.group(1)
    assert 'STIX-Web' in (mj/'config'/'local'/'tpu_vision.js').read_text() and any((mj/'fonts'/'HTML-CSS'/'STIX-Web').rglob('*.woff'))
    assert '<p>$$\\mathcal{L} = \\alpha' in page, "05_distill's loss is not left whole for MathJax"

def test_quarto_renders_formulas():
    "The published site: Quarto renders a markdown cell's `$...$` and `$$...$$` with MathJax (its default) or KaTeX"
    q = yaml.safe_load((ROOT/'nbs'/'_quarto.yml').read_text())
    m = q['format']['html'].get('html-math-method', 'mathjax')
    assert (m['method'] if isinstance(m, dict) else m) in ('mathjax', 'katex'), f'html-math-method {m}: no formulas'
    md = ''.join(next(c for c in json.loads((ROOT/'nbs'/'05_distill.ipynb').read_text())['cells']
                      if '\\mathcal{L}' in ''.join(c['source']))['source'])
    assert re.search(r'^\$\$\S.*\S\$\$$', md, re.M), 'display math Quarto (pandoc) reads: $$ on its own line, no space inside'

def test_llms_txt_published(site):
    q = yaml.safe_load((ROOT/'nbs'/'_quarto.yml').read_text())
    import fnmatch
    assert any(fnmatch.fnmatch('llms.txt', g) for g in q['project'].get('resources', [])), 'Quarto does not publish llms.txt'
    assert q['format']['html'].get('keep-md'), 'the .html.md pages llms.txt links to come from keep-md'
    txt = (site/'llms.txt').read_text()
    links = re.findall(r'\]\((https://tpu-vision\.github\.io/tpu_vision/[^)\s]+)\)', txt)
    assert len(links) >= 10 and all((site/u.rsplit('/', 1)[1]).is_file() for u in links), links
    assert '### Learner.to_tpu' in (site/'learner.html.md').read_text()

def test_colab_badge_on_every_page(site):
    for name in PAGES:
        page = (site/name).read_text()
        nb = 'index.ipynb' if name == 'index.html' else next(p.name for p in (ROOT/'nbs').glob('*.ipynb')
                                                            if re.sub(r'^\d+[a-z]?_', '', p.stem) + '.html' == name)
        assert f'colab.research.google.com/github/tpu-vision/tpu_vision/blob/main/nbs/{nb}' in page and 'colab-badge.svg' in page, name
