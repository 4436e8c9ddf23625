"""fastai image classification on Google TPUs at hand-written PyTorch/XLA speed, and just as well on GPU and CPU

Modules:

- `tpu_vision.all`: Everything a notebook or script needs: `from tpu_vision.all import *`, before or after `from fastai.vision.all import *`."""

__version__ = "0.0.1"
