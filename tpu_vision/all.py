"Everything a notebook or script needs: `from tpu_vision.all import *`"
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
