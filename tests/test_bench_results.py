"""Every benchmark result in bench/results records how to get it again: the command, the git revision, the versions and
the machine (bench/record.py writes them for the bench/ scripts; `tpu-vision bench` and `benchmark` write their own)."""
import json
from pathlib import Path
import pytest

RESULTS = Path(__file__).resolve().parents[1]/'bench'/'results'
JSONS = sorted(RESULTS.rglob('*.json'))

def provenance(d:dict) -> dict:
    "The command/git/versions/machine of a result, whichever writer made it"
    if 'provenance' in d: return d['provenance']
    if 'env' in d: return d['env']
    return dict(command=d.get('command'), git=d.get('revision', d.get('git')), versions=d.get('versions'), machine=d.get('machine'))

def test_found(): assert len(JSONS) >= 10, JSONS

@pytest.mark.parametrize('f', JSONS, ids=lambda f: str(f.relative_to(RESULTS)))
def test_json_records_how(f):
    d = json.loads(f.read_text())
    for r in d.get('runs', []): check(provenance(r), f)
    if 'runs' not in d: check(provenance(d), f)

def check(p, f):
    missing = [k for k in ('command', 'git', 'versions', 'machine') if not p.get(k)]
    assert not missing, f'{f.name}: no {missing}'
    assert 'tpu-vision' in p['command'] or 'python bench/' in p['command'], p['command']
    assert 'torch' in p['versions'], p['versions']

@pytest.mark.parametrize('f', sorted(RESULTS.rglob('*.log')), ids=lambda f: str(f.relative_to(RESULTS)))
def test_log_says_how(f):
    "A log starts with its command line, or sits beside the JSON that records it"
    first = f.read_text().splitlines()[0]
    assert (first.startswith('#') and ('python bench/' in first or 'tpu-vision' in first)) or \
        f.with_suffix('.json').exists() or (f.parent/'bench.json').exists(), f'{f.name}: {first[:100]}'
