"Everything a notebook or script needs: `from tpu_vision.all import *`"
from .device import *
from .models import *
