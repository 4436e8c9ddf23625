#!/usr/bin/env python
"""What the image cache's key and checks cost (issue 25): build and open time of `image_cache` on 10,000 images,
before (the revision this branch started from) and after (this tree), in one run.

    python bench/cache_cost.py                  # 10,000 Fashion-MNIST PNGs (5,000 train + 5,000 valid), 32 px
    python bench/cache_cost.py --before main    # compare with another revision (default: merge-base with main)
    python bench/cache_cost.py --probes         # then the issue's disk/folder probes through the CLI (root: a tmpfs)

Before = `git archive REV tpu_vision` unpacked in a temporary folder; after = this tree. Each is measured in its own
child process (import time not counted), the two alternating, `--reps` times each; within a child, `--rounds` rounds
of: the key (`cache_key`: one `stat` per file), a content hash (BLAKE2b of every file's bytes, the alternative key),
a cold build into a new folder, `--opens` opens of the built cache, and (after only) an open with `verify=True` (every
row's checksum). The files are in the page cache (a first scan reads them all). Medians; a table on stdout and
`bench/results/cache_cost.json`. A benchmark, not a test: it prints, it asserts nothing.
"""
import argparse, json, os, subprocess, sys, tempfile, statistics, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import sys, json, time, hashlib, tempfile, shutil, statistics, warnings
sys.path.insert(0, sys.argv[1])
import tpu_vision.cache as tvc
from tpu_vision.data import scan_folder
folder,storage,rounds,opens = sys.argv[2],int(sys.argv[3]),int(sys.argv[4]),int(sys.argv[5])
assert tvc.__file__.startswith(sys.argv[1]), tvc.__file__
scan = scan_folder(folder)
def clock(f):
    t = time.perf_counter(); r = f(); return time.perf_counter() - t, r
def content_hash():
    h = hashlib.blake2b()
    for f in scan.items:
        with open(f, 'rb') as fh: h.update(fh.read())
    return h.hexdigest()
res = dict(n=len(scan.items), key=[], content_hash=[], build=[], open=[], open_verify=[])
for _ in range(rounds):
    res['key'].append(clock(lambda: tvc.cache_key(scan, storage))[0])
    res['content_hash'].append(clock(content_hash)[0])
    d = tempfile.mkdtemp()
    t,c = clock(lambda: tvc.image_cache(scan, storage, d, verbose=False)); res['build'].append(t)
    res['open'] += [clock(lambda: tvc.image_cache(scan, storage, d, verbose=False))[0] for _ in range(opens)]
    if 'verify' in tvc.image_cache.__code__.co_varnames:
        res['open_verify'].append(clock(lambda: tvc.image_cache(scan, storage, d, verbose=False, verify=True))[0])
    res['mib'] = c.images.nbytes / 2**20
    shutil.rmtree(d)
print('RESULT ' + json.dumps(res))
'''

def export(rev, dest):
    "The package `tpu_vision` of revision `rev`, unpacked under `dest`"
    tar = subprocess.run(['git', '-C', str(ROOT), 'archive', rev, 'tpu_vision'], check=True, capture_output=True).stdout
    subprocess.run(['tar', '-x', '-C', str(dest)], input=tar, check=True)
    return dest

def child(pkg, folder, a):
    r = subprocess.run([sys.executable, '-c', CHILD, str(pkg), str(folder), str(a.storage), str(a.rounds), str(a.opens)],
                       capture_output=True, text=True)
    line = [l for l in r.stdout.splitlines() if l.startswith('RESULT ')]
    if r.returncode or not line: sys.exit(f"child failed ({pkg}):\n{r.stderr[-3000:]}")
    return json.loads(line[0][7:])

def cli(args, env=None, cwd=None):
    "Run `tpu-vision ARGS`: (exit code, stderr lines)"
    r = subprocess.run([sys.executable, '-m', 'tpu_vision.cli', *args], capture_output=True, text=True,
                       env={**os.environ, **(env or {})}, cwd=cwd)
    return r.returncode, [l for l in r.stderr.splitlines() if l.strip()]

def probes(folder):
    "The issue's probes through the CLI: a full disk (a 1 MiB tmpfs), a folder with no validation images, `..dog`"
    sys.path.insert(0, str(ROOT))
    from tpu_vision.test_utils import make_folder
    import shutil
    small = make_folder(8, 3, size=16)
    base = ['train', '--arch', 'tiny_cnn', '--epochs', '1', '--bs', '4', '--size', '16', '--device', 'cpu']
    out = {}
    if os.geteuid() == 0:
        mnt = Path(tempfile.mkdtemp())
        if subprocess.run(['mount', '-t', 'tmpfs', '-o', 'size=1m', 'tmpfs', str(mnt)]).returncode == 0:
            try:
                code,err = cli([*base, str(folder), '--cache', '--out', tempfile.mkdtemp()], env={'TPU_VISION_HOME': str(mnt)})
                out['full_disk_cli'] = dict(exit=code, stderr_last=err[-1:], traceback=any('Traceback' in l for l in err))
            finally: subprocess.run(['umount', str(mnt)])
    nv = make_folder(8, 0, size=16)
    code,err = cli([*base, str(nv), '--out', tempfile.mkdtemp()])
    out['no_valid_cli'] = dict(exit=code, stderr_last=err[-1:], traceback=any('Traceback' in l for l in err))
    dd = make_folder(8, 3, size=16)
    for s in ('train', 'valid'): shutil.move(str(dd/s/'c2'), dd/s/'..c2')
    code,err = cli([*base, str(dd), '--out', tempfile.mkdtemp()])
    out['dotdot_class_cli'] = dict(exit=code, warning=[l for l in err if 'hidden' in l][:1])
    return out

def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument('--before', default=None, help='revision to compare with (default: merge-base of HEAD and main)')
    p.add_argument('--n', type=int, default=5000, help='Fashion-MNIST images per split (default 5000: 10,000 in all)')
    p.add_argument('--storage', type=int, default=32, help='side of the cached images (default 32)')
    p.add_argument('--rounds', type=int, default=2); p.add_argument('--opens', type=int, default=5)
    p.add_argument('--reps', type=int, default=2, help='child processes of each, alternating (default 2)')
    p.add_argument('--probes', action='store_true')
    a = p.parse_args()
    from record import header, provenance; print(header(), flush=True)
    sys.path.insert(0, str(ROOT))
    from tpu_vision.data import fashion_mnist
    folder = fashion_mnist(limit=a.n)
    rev = a.before or subprocess.run(['git', '-C', str(ROOT), 'merge-base', 'HEAD', 'main'], check=True,
                                     capture_output=True, text=True).stdout.strip()
    before = export(rev, Path(tempfile.mkdtemp()))
    runs = {'before': [], 'after': []}
    for _ in range(a.reps):
        for k,pkg in (('before', before), ('after', ROOT)): runs[k].append(child(pkg, folder, a))
    res = dict(provenance=provenance(), folder=str(folder), before_rev=rev, storage=a.storage, n=runs['after'][0]['n'],
               mib=round(runs['after'][0]['mib'], 1))
    for k,rs in runs.items():
        res[k] = {m: round(statistics.median(v for r in rs for v in r[m]), 4) for m in rs[0]
                  if isinstance(rs[0][m], list) and any(r[m] for r in rs)}
    print(f"{res['n']:,} images ({folder}), stored at {a.storage} px ({res['mib']} MiB); before = {rev[:7]}")
    print(f"{'seconds (median)':<36}{'before':>10}{'after':>10}")
    for m in ('key', 'content_hash', 'build', 'open', 'open_verify'):
        b,f = res['before'].get(m),res['after'].get(m)
        print(f"{m:<36}{'' if b is None else f'{b:.3f}':>10}{'' if f is None else f'{f:.3f}':>10}")
    if a.probes: res['probes'] = probes(folder); print(json.dumps(res['probes'], indent=1))
    out = ROOT/'bench'/'results'/'cache_cost.json'
    out.write_text(json.dumps(res, indent=1) + '\n')

if __name__ == '__main__': main()
