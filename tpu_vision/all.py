"""Everything a notebook or script needs: `from tpu_vision.all import *`, before or after `from fastai.vision.all import *`.

It never replaces a fastai name. The device versions of fastai's augmentation (02_augment: `aug_transforms`, `Flip`,
..., `RandomErasing`), `vision_learner` with offline pretrained weights (03a_models) and `to_cpu` (00_device) keep
fastai's names in their own modules; ask for them there, e.g. `from tpu_vision.augment import aug_transforms`."""
from .device import *
from .data import *
from .cache import *
from .augment import *
from .learner import *
from .models import *
from .optim import *
from .distill import *
from .parallel import *
from .export import *
from .edge import *
from .tune import *
import fastai.vision.all as _fastai

SHADOWED = sorted(n for n,o in dict(globals()).items() if not n.startswith('_') and getattr(_fastai, n, o) is not o)
__all__ = [n for n in dict(globals()) if not n.startswith('_') and n not in SHADOWED and n != 'SHADOWED']
