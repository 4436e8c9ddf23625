import os, subprocess
from pathlib import Path
import pytest

ROOT = Path(__file__).resolve().parents[1]

@pytest.fixture(scope='session')
def wheel():
    "(the built wheel, the Python of a fresh venv it is installed in): tools/test.sh makes them once (tools/wheel_env.sh)"
    if not os.environ.get('TPU_VISION_WHEEL'):
        out = subprocess.run(['bash', str(ROOT/'tools/wheel_env.sh')], capture_output=True, text=True, check=True).stdout
        os.environ['TPU_VISION_WHEEL'] = out.strip().splitlines()[-1]
        os.environ['TPU_VISION_WHEEL_PYTHON'] = str(ROOT/'.venv-wheel/bin/python')
    return Path(os.environ['TPU_VISION_WHEEL']), Path(os.environ['TPU_VISION_WHEEL_PYTHON'])

def newcomer_env(tmp_path):
    """The environment of a user who has only the wheel: nothing of this repository on the path, no XLA device asked for,
    no Debian dataset"""
    env = {k: v for k, v in os.environ.items() if k not in ('PYTHONPATH', 'PJRT_DEVICE', 'CPU_NUM_DEVICES', 'VIRTUAL_ENV')}
    # Debian's Fashion-MNIST hidden, as on Colab (none there): a non-slow cell must not need it (slow cells may)
    hide = {} if 'slow' in os.environ.get('TPU_VISION_TEST_FLAGS', '').split() else {'TPU_VISION_FASHION_DIRS': ''}
    return {**env, **hide, 'TPU_VISION_HOME': str(tmp_path/'tpu_vision_home')}
