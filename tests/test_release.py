"""The release workflow does what the README promises before it publishes: build, check, install the wheel in a clean
environment and train from it; it publishes by trusted publishing only, on a version tag."""
import re
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
