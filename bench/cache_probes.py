#!/usr/bin/env python
"""Issue 25's cache and folder probes (items 1 and 5), run against a revision's `tpu_vision` and this tree's: what
each gives, so that the tests in 01a_cache / 01_data are seen to fail before and pass after.

    python bench/cache_probes.py                 # before = merge-base of HEAD and main; after = this tree
    python bench/cache_probes.py --before main

Each probe runs in a child process that imports the package from the given folder; its line says `ok` when the
behaviour is the one the issue asks for, else what happened. A check, not a test suite: the tests are in the notebooks.
"""
import argparse, subprocess, sys, tempfile, json
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import sys, os, json, errno, shutil, signal, tempfile, time, warnings, subprocess
sys.path.insert(0, sys.argv[1])
os.environ['TPU_VISION_HOME'] = tempfile.mkdtemp()
import numpy as np
from pathlib import Path
from PIL import Image
import tpu_vision.cache as tvc, tpu_vision.data as tvd
from tpu_vision.test_utils import make_folder
assert tvc.__file__.startswith(sys.argv[1]), tvc.__file__
out = {}
def probe(name):
    def deco(f):
        try:
            with warnings.catch_warnings(): warnings.simplefilter('ignore'); out[name] = f() or 'ok'
        except Exception as e: out[name] = f'raised {type(e).__name__}: {str(e)[:150]}'
    return deco
def same_sizes(seed):
    root,rng = Path(tempfile.mkdtemp())/'ds',np.random.default_rng(seed)
    for s,n in (('train', 6), ('valid', 2)):
        for c in ('a', 'b'):
            (root/s/c).mkdir(parents=True)
            for i in range(n):
                Image.fromarray(rng.integers(0, 256, (16, 16, 3), np.uint8)).save(root/s/c/f'{i}.png', compress_level=0)
    for f in root.rglob('*.png'): os.utime(f, ns=(10**18, 10**18))
    return root
def decoded(scan): return np.stack([tvc.decode_image(f, 16) for f in scan.items])
def wrong_rows(c, scan): return int((c.images[:] != decoded(scan)).reshape(len(scan.items), -1).any(1).sum())
cdir = Path(tempfile.mkdtemp())
a,b = same_sizes(0),same_sizes(1)

@probe('two folders, same names/sizes/mtimes: rows of the second wrong')
def _():
    tvc.image_cache(tvd.scan_folder(a), 16, cdir, verbose=False)
    n = wrong_rows(tvc.image_cache(tvd.scan_folder(b), 16, cdir, verbose=False), tvd.scan_folder(b))
    return None if n == 0 else f'{n} of 16 rows wrong'

@probe('pixels rewritten in place, mtime restored: stale rows')
def _():
    f = tvd.scan_folder(b).items[3]; st = f.stat()
    Image.fromarray(np.full((16, 16, 3), 7, np.uint8)).save(f, compress_level=0)
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    n = wrong_rows(tvc.image_cache(tvd.scan_folder(b), 16, cdir, verbose=False), tvd.scan_folder(b))
    return None if n == 0 else f'{n} stale row(s)'

@probe('pixel bytes zeroed in images.npy: served')
def _():
    c = tvc.image_cache(tvd.scan_folder(b), 16, cdir, verbose=False)
    mm = np.load(c.path/'images.npy', mmap_mode='r+'); mm[:] = 0; mm.flush(); del mm
    n = wrong_rows(tvc.image_cache(tvd.scan_folder(b), 16, cdir, verbose=False), tvd.scan_folder(b))
    return None if n == 0 else f'{n} of 16 rows zero'

@probe('labels swapped in meta.json: served')
def _():
    c = tvc.image_cache(tvd.scan_folder(b), 16, cdir, verbose=False)
    m = json.loads((c.path/'meta.json').read_text()); m['labels'] = m['labels'][::-1]
    (c.path/'meta.json').write_text(json.dumps(m))
    c = tvc.image_cache(tvd.scan_folder(b), 16, cdir, verbose=False)
    return None if c.labels == tvd.scan_folder(b).labels else 'swapped labels served'

@probe('SIGKILL during a build: orphan removed by the next build of another folder')
def _():
    d,p = Path(tempfile.mkdtemp()),make_folder(40, 12, mixed=True)
    code = (f"import os, signal, tpu_vision.cache as tvc\nfrom tpu_vision.data import scan_folder\n"
            f"orig = tvc.decode_image\n"
            f"def dying(fn, s): os.kill(os.getpid(), signal.SIGKILL)\n"
            f"tvc.decode_image = dying\ntvc.image_cache(scan_folder({str(p)!r}), 40, {str(d)!r}, n_workers=1)\n")
    subprocess.run([sys.executable, '-c', code], env={**os.environ, 'PYTHONPATH': sys.argv[1]})
    tvc.image_cache(tvd.scan_folder(make_folder(4, 2)), 20, d, verbose=False)
    left = [o.name for o in d.iterdir() if '.tmp' in o.name]
    return None if not left else f'orphan left: {left}'

@probe('full disk during a build: a one-line error (ValueError for the CLI) naming TPU_VISION_HOME')
def _():
    orig = os.posix_fallocate
    def no_room(*a): raise OSError(errno.ENOSPC, 'No space left on device')
    os.posix_fallocate = no_room
    try: tvc.image_cache(tvd.scan_folder(make_folder(4, 2)), 20, Path(tempfile.mkdtemp()), verbose=False)
    except Exception as e:
        ok = isinstance(e, ValueError) and 'TPU_VISION_HOME' in str(e) and '\n' not in str(e)
        return None if ok else f'{type(e).__name__}: {str(e)[:120]}'
    finally: os.posix_fallocate = orig
    return 'no error'

@probe('folder with no validation images: error before training')
def _():
    try: tvd.image_dls(make_folder(8, 0), size=8, bs=2, num_workers=0, verbose=False)
    except ValueError as e: return None if 'no validation images' in str(e) else str(e)
    return 'DataLoaders made: training would run an epoch, then fail'

@probe("class folder '..c2': listed with the reason")
def _():
    p = make_folder(4, 2)
    for s in ('train', 'valid'): shutil.move(str(p/s/'c2'), p/s/'..c2')
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always'); scan = tvd.scan_folder(p)
    said = any('..c2' in str(o.message) for o in w) and '..c2' in scan.report()
    return None if said else f'silently dropped: classes {scan.classes}'
print('RESULT ' + json.dumps(out))
'''

def export(rev, dest):
    tar = subprocess.run(['git', '-C', str(ROOT), 'archive', rev, 'tpu_vision'], check=True, capture_output=True).stdout
    subprocess.run(['tar', '-x', '-C', str(dest)], input=tar, check=True)
    return dest

def run(pkg):
    r = subprocess.run([sys.executable, '-c', CHILD, str(pkg)], capture_output=True, text=True)
    line = [l for l in r.stdout.splitlines() if l.startswith('RESULT ')]
    if not line: sys.exit(f'child failed ({pkg}):\n{r.stderr[-3000:]}')
    return json.loads(line[0][7:])

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--before', default=None, help='revision (default: merge-base of HEAD and main)')
    a = p.parse_args()
    from record import header; print(header(), flush=True)
    rev = a.before or subprocess.run(['git', '-C', str(ROOT), 'merge-base', 'HEAD', 'main'], check=True,
                                     capture_output=True, text=True).stdout.strip()
    before,after = run(export(rev, Path(tempfile.mkdtemp()))),run(ROOT)
    for k in after:
        print(f'{k}\n    before ({rev[:7]}): {before.get(k)}\n    after: {after[k]}')

if __name__ == '__main__': main()
