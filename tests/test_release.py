"""The release workflow does what the README promises before it publishes: build, check, install the wheel in a clean
environment and train from it; it publishes by trusted publishing only, on a version tag."""
import re, tomllib
from pathlib import Path
import yaml

ROOT = Path(__file__).resolve().parents[1]
WF = yaml.safe_load((ROOT/'.github/workflows/release.yaml').read_text())

def test_release_runs_on_version_tags_only():
    on = WF[True] if True in WF else WF['on']   # YAML 1.1 reads the key `on` as True
    assert list(on) == ['push'] and on['push'] == {'tags': ['v*']}, on

def test_release_checks_before_it_publishes():
    build, publish = WF['jobs']['build'], WF['jobs']['publish']
    runs = '\n'.join(s.get('run', '') for s in build['steps'])
    for must in ('python -m build', 'twine check --strict dist/*', 'pip install dist/*.whl',
                 'tpu-vision train --epochs 1 --arch tiny_cnn', 'tpu_vision/__init__.py'):
        assert must in runs, must
    assert (ROOT/'tpu_vision/__init__.py').exists() and re.search(r'__version__ = "[\d.]+"', (ROOT/'tpu_vision/__init__.py').read_text())
    assert publish['needs'] == 'build' and publish['environment']['name'] == 'pypi'

def test_release_publishes_with_trusted_publishing():
    publish = WF['jobs']['publish']
    assert publish['permissions'] == {'id-token': 'write'} and WF['permissions'] == {'contents': 'read'}
    step = publish['steps'][-1]
    assert step['uses'] == 'pypa/gh-action-pypi-publish@release/v1' and not step.get('with', {}).get('password')

def test_release_waits_for_the_tests_and_pins_torch():
    jobs = WF['jobs']
    assert jobs['test'] == {'uses': './.github/workflows/test.yaml'} and jobs['build']['needs'] == 'test'
    ci = yaml.safe_load((ROOT/'.github/workflows/test.yaml').read_text())
    assert 'workflow_call' in (ci[True] if True in ci else ci['on']), 'release.yaml calls test.yaml: it must allow workflow_call'
    dev = tomllib.loads((ROOT/'pyproject.toml').read_text())['project']['optional-dependencies']['dev']
    pins = {r.replace(' ', '') for r in dev if re.match(r'(torch|torchvision)\s*==', r)}
    runs = '\n'.join(s.get('run', '') for s in jobs['build']['steps'])
    line = next(l for l in runs.splitlines() if 'download.pytorch.org/whl/cpu' in l)
    assert len(pins) == 2 and pins == {a for a in line.split() if '==' in a}, (pins, line)
