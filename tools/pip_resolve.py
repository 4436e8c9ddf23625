"""Does pip resolve every install the README documents? (issue 46 item 4)

For the core package, each extra and `[dev]`, runs pip's own resolver -- `pip install --dry-run --ignore-installed
--report` in a throwaway venv with the newest pip, as a user's fresh venv or Colab has it -- under a time limit, a few
at once (they wait on the network, not the CPU). Prints each target's verdict and seconds; exits 1 if any did not
resolve in time, with pip's last lines. A new conflict between our pins and a dependency's fails CI here, not a user.

    python tools/pip_resolve.py                 # every target
    python tools/pip_resolve.py litert dev      # some
"""
import os, sys, time, json, subprocess, tempfile, tomllib, venv
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LIMIT = int(os.environ.get('TPU_VISION_RESOLVE_LIMIT', 900))   # seconds per target: pip 23 took 30 min for [dev]

def targets():
    "'' (the core package) and every extra of pyproject.toml"
    extras = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']['optional-dependencies']
    return ['', *extras]

def pip_venv(d: Path) -> Path:
    "A venv in `d` with the newest pip (what `python -m venv` ships may be years old)"
    py = d/'bin'/'python'
    if not py.exists(): venv.create(d, with_pip=True)
    subprocess.run([str(py), '-m', 'pip', 'install', '-q', '--disable-pip-version-check', '-U', 'pip'], check=True)
    return py

def resolve(py: Path, extra: str, out: Path):
    "`(extra, ok, seconds, packages, tail)`: pip's resolver on `.[extra]`"
    spec = f'.[{extra}]' if extra else '.'
    rep = out/f'{extra or "core"}.json'; t0 = time.time()
    try:
        p = subprocess.run([str(py), '-m', 'pip', 'install', '--disable-pip-version-check', '--dry-run',
                            '--ignore-installed', '--quiet', '--report', str(rep), spec],
                           cwd=ROOT, capture_output=True, text=True, timeout=LIMIT)
        ok,tail = p.returncode == 0,(p.stdout + p.stderr)[-2000:]
    except subprocess.TimeoutExpired: ok,tail = False,f'no resolution in {LIMIT} s'
    n = len(json.loads(rep.read_text())['install']) if ok and rep.exists() else 0
    return extra or 'core', ok, time.time() - t0, n, tail

def main(names):
    names = names or targets()
    with tempfile.TemporaryDirectory() as d:
        py = pip_venv(Path(d)/'venv')
        ver = subprocess.run([str(py), '-m', 'pip', '--version'], capture_output=True, text=True).stdout.split()[1]
        print(f'pip {ver}: resolving {len(names)} targets, at most {LIMIT} s each', flush=True)
        with ThreadPoolExecutor(4) as ex: res = list(ex.map(lambda e: resolve(py, e, Path(d)), names))
    for name,ok,secs,n,tail in res:
        print(f"  {'ok  ' if ok else 'FAIL'} {name:10} {secs:6.1f} s  {n} packages")
        if not ok: print('    ' + tail.replace('\n', '\n    '))
    return 0 if all(r[1] for r in res) else 1

if __name__ == '__main__': sys.exit(main(sys.argv[1:]))
