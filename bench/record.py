"""What every benchmark result records beside its figures: the command that produced it, the git revision, the versions
and the machine. Each bench/ script prints `header()` as its first line and puts `provenance()` into its JSON:

    from record import header, provenance     # bench/ is on sys.path when a script of it runs
    print(header(), flush=True)
    ...; json.dumps(dict(provenance=provenance(), ...))
"""
import os, platform, shlex, sys, time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path: sys.path.insert(0, str(ROOT))

def command(argv=None) -> str:
    "The command line as a user types it: `python bench/x.py ...` from the repository's root, with the XLA variables set"
    argv = sys.argv if argv is None else argv
    script = Path(argv[0]).resolve()
    try: script = script.relative_to(ROOT)
    except ValueError: pass
    env = ' '.join(f'{k}={os.environ[k]}' for k in ('PJRT_DEVICE', 'CPU_NUM_DEVICES') if k in os.environ)
    return ' '.join(filter(None, [env, 'python', shlex.join([str(script), *argv[1:]])]))

def machine() -> dict:
    "The CPUs (and their load: the machines here are shared), the platform, and the accelerator variables"
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, 'sched_getaffinity') else os.cpu_count()
    load = [round(v, 1) for v in os.getloadavg()] if hasattr(os, 'getloadavg') else None
    return dict(cpus=cpus, cpu_count=os.cpu_count(), platform=platform.platform(), processor=platform.machine(), load=load)

def provenance(argv=None) -> dict:
    "command, git revision, versions (03c_recipe's `versions`), machine and the UTC time of a benchmark run"
    from tpu_vision.recipe import versions
    from tpu_vision.bench import git_revision   # this checkout's commit (tpu_vision/ is in it)
    return dict(command=command(argv), git=git_revision(), versions=versions(), machine=machine(),
                date=time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime()))

def header(argv=None) -> str:
    "One line for the top of a log: `# <command> | git <rev> | <versions> | <cpus> CPUs, load <l>`"
    p = provenance(argv)
    v = ', '.join(f'{k} {x}' for k,x in p['versions'].items() if x)
    m = p['machine']
    return f"# {p['command']} | git {p['git']} | {p['date']} | {v} | {m['platform']}, {m['cpus']} CPUs, load {m['load']}"
