"""How fast a folder becomes an image cache, by decoding workers: threads (before) against processes (now), 1 and 2 of
each, and what a second run costs (issue 47 item 1).

    python bench/decode.py [--n 10000] [--rounds 3] [--size 32] [--folder DIR]

Each side runs in a fresh process on the same folder (files in the page cache), sides interleaved and reversed each
round (ABBA...), medians with min-max; every side's cache is checked equal to the others'. Sides:
- `threads+check, 1/2`: the code before: `scan_folder(verify=True)` decodes every file once to check it (threads),
  then the build decodes it again into the cache (threads);
- `processes, 1/2`: `cached_dls`' build now: the folder listed, each file decoded once in worker processes;
- `second run`: the cache already built: listing, key, 64 rows checked.
Results: bench/results/decode.json (and .log with the table).
"""
import argparse, json, os, statistics, subprocess, sys, tempfile, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r'''
import sys, time, json, shutil, warnings, numpy as np
from pathlib import Path
from concurrent.futures import ThreadPoolExecutor
side, folder, size, out = sys.argv[1], Path(sys.argv[2]), int(sys.argv[3]), Path(sys.argv[4])
import tpu_vision.cache as tvc
from tpu_vision.data import scan_folder
from tpu_vision.images import check_image
warnings.simplefilter('ignore')
shutil.rmtree(out, ignore_errors=True)
kind, nw = side.rsplit(' ', 1) if side != 'second run' else (side, '2')
nw = int(nw)
t0 = time.perf_counter()
if kind == 'threads+check':
    scan = scan_folder(folder, verify=False)
    with ThreadPoolExecutor(nw) as ex: bad = list(ex.map(check_image, scan.items))    # the check: a first decode
    assert not any(bad)
    imgs = np.zeros((len(scan.items), 3, size, size), np.uint8)
    def work(i): imgs[i] = tvc.decode_image(scan.items[i], size)
    with ThreadPoolExecutor(nw) as ex: list(ex.map(work, range(len(scan.items))))    # the build: a second decode
    rows = imgs
else:
    if kind == 'second run': tvc.image_cache(scan_folder(folder, verify=False), size, out, nw, verbose=False)
    t0 = time.perf_counter()
    scan = scan_folder(folder, verify=False)
    c = tvc.image_cache(scan, size, out, nw, verbose=False)
    rows = c.images
secs = time.perf_counter() - t0
print(json.dumps(dict(secs=secs, n=len(rows), sum=int(rows[::97].astype(np.int64).sum()))))
'''

SIDES = ['threads+check 1', 'threads+check 2', 'processes 1', 'processes 2', 'second run']

def run(side, folder, size, out):
    p = subprocess.run([sys.executable, '-c', CHILD, side, str(folder), str(size), str(out)], capture_output=True,
                       text=True, cwd=ROOT)
    if p.returncode: sys.exit(f'{side} failed:\n{p.stderr[-3000:]}')
    return json.loads(p.stdout.strip().splitlines()[-1])

def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--n', type=int, default=10000, help='Fashion-MNIST images per split (if no --folder)')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--size', type=int, default=32, help='stored side in pixels')
    ap.add_argument('--folder', help='an image folder of your own instead')
    ap.add_argument('--out', default=str(ROOT/'bench'/'results'/'decode'))
    a = ap.parse_args()
    sys.path.insert(0, str(ROOT/'bench')); from record import header, provenance
    print(header(), flush=True)
    from tpu_vision.data import fashion_mnist
    folder = Path(a.folder) if a.folder else fashion_mnist(limit=a.n)
    res = {s: [] for s in SIDES}; sums = {}
    with tempfile.TemporaryDirectory() as d:
        run('processes 2', folder, a.size, Path(d)/'warm')   # the files into the page cache
        for r in range(a.rounds):
            for s in (SIDES if r % 2 == 0 else SIDES[::-1]):
                o = run(s, folder, a.size, Path(d)/'c')
                res[s].append(o['secs']); sums[s] = o['sum']
                print(f"round {r+1}/{a.rounds} {s:16} {o['secs']:6.2f} s  ({o['n']:,} images)", flush=True)
    assert len(set(sums.values())) == 1, f'the sides decoded different pixels: {sums}'
    n = o['n']; med = {s: statistics.median(v) for s,v in res.items()}
    lines = [header(), f"{n:,} images of {folder} at {a.size} px, {os.cpu_count()} cores, {a.rounds} rounds (median, min-max):", '',
             '| side | seconds | images/s | vs threads+check 1 |', '|---|---|---|---|']
    for s,v in res.items():
        lines.append(f"| {s} | {med[s]:.2f} ({min(v):.2f}-{max(v):.2f}) | {n/med[s]:,.0f} | "
                     f"{med['threads+check 1']/med[s]:.2f}x |")
    per = n/med['processes 1']
    lines += ['', f"processes: 2 workers {med['processes 1']/med['processes 2']:.2f}x one; one worker decodes "
              f"{per:,.0f} images/s, so 16 cores would give at most ~{16*per:,.0f}/s (if the disk keeps up)."]
    print('\n'.join(lines))
    Path(a.out).parent.mkdir(parents=True, exist_ok=True)
    Path(a.out + '.json').write_text(json.dumps(dict(provenance=provenance(), n=n, folder=str(folder), size=a.size, cores=os.cpu_count(),
                                                     seconds=res, median=med), indent=1))
    Path(a.out + '.log').write_text('\n'.join(lines) + '\n')

if __name__ == '__main__': main()
