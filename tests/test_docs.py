"""The local docs site builds from the processed notebooks, and a real browser can navigate it."""
import re, shutil, subprocess, sys
from pathlib import Path
from urllib.parse import urljoin
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT/'tools'))
import build_docs

def _chromium():
    exe = shutil.which('chromium') or shutil.which('chromium-browser') or shutil.which('google-chrome')
    assert exe, 'Chromium is not installed: `apt-get install chromium` (tools/setup.sh does it)'
    return exe

def dom(url, tmp_path):
    "The DOM of `url` after headless Chromium has loaded and rendered it"
    r = subprocess.run([_chromium(), '--headless', '--no-sandbox', '--disable-gpu', '--no-first-run',
                        '--disable-background-networking', '--disable-component-update', '--disable-sync',
                        f'--user-data-dir={tmp_path/"profile"}', '--dump-dom', url],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and '<html' in r.stdout, r.stderr[-2000:]
    return r.stdout

@pytest.fixture(scope='module')
def site(tmp_path_factory): return build_docs.site(tmp_path_factory.mktemp('site'))

def test_site_pages(site):
    names = {p.name for p in site.glob('*.html')}
    assert {'index.html', 'device.html', 'cli.html'} <= names, names

def test_browser_follows_link_to_device_docs(site, tmp_path):
    index = dom((site/'index.html').as_uri(), tmp_path)
    links = re.findall(r'<a[^>]+href="([^"]*device\.html)"[^>]*>(.*?)</a>', index)
    assert links, 'no link to the device page on the index page'
    page = dom(urljoin((site/'index.html').as_uri(), links[0][0]), tmp_path)
    text = re.sub(r'<[^>]+>', ' ', page)
    assert re.search(r'<h\d[^>]*>\s*describe', page), 'no heading for `describe` on the device page'
    assert 'Print a readable report of the backend' in ' '.join(text.split()), 'the docstring of `describe` is missing'
    assert 'device.html' in page and 'class="here"' in page  # the navigation bar marks the current page
