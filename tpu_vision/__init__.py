"""fastai image classification on Google TPUs at hand-written PyTorch/XLA speed, and just as well on GPU and CPU

Modules:

- `tpu_vision.all`: Everything a notebook or script needs: `from tpu_vision.all import *`, before or after `from fastai.vision.all import *`
- `tpu_vision.archs`: A model that remembers how it was built: rebuilt from a name and its arguments, never from code in a file
- `tpu_vision.augment`: Batch augmentation that runs on the accelerator: fastai's `aug_transforms`, `RandomErasing` and `Cutout` with no CPU fallback and no recompilation
- `tpu_vision.bench`: Stock fastai, `to_tpu` and a hand-written loop, measured side by side on your device
- `tpu_vision.benchmark`: Every export format of a model side by side: file size, top-1, agreement with the `.pkl`, latency and throughput
- `tpu_vision.cache`: Decode an image folder once into one memory-mapped array; every batch is then a single slice of it
- `tpu_vision.checks`: Every argument of a run checked before any work: one line that names it and says what to do
- `tpu_vision.cli`: `tpu-vision`: the main job from a shell
- `tpu_vision.data`: Image folders to fastai `DataLoaders` with fixed-shape batches, checked files, real sample data offline, and device loading that overlaps compute
- `tpu_vision.device`: One place that knows which accelerator you have: detection, sync, optimizer step, autocast, counters
- `tpu_vision.distill`: Knowledge distillation on any backend: a big teacher's logits train a small student inside the same compiled step
- `tpu_vision.edge`: OpenVINO for Intel CPUs, LiteRT (`.tflite`) for phones and Coral's Edge TPU: each checked to predict what the model does
- `tpu_vision.evaluate`: How good a model is on a folder of images: top-1, top-5, each class, the confusion matrix
- `tpu_vision.export`: Train on a TPU, predict anywhere: fastai's pickle, safe weights, ONNX, int8, OpenVINO and LiteRT, converted by `export_model`
- `tpu_vision.files`: Every file tpu_vision writes: whole or not at all, by one writer, under a lock, and trusted only if written here
- `tpu_vision.formats`: One table of every export format -- its files, writer, loader and extra -- that `export_model`, `tpu-vision` and these docs read
- `tpu_vision.images`: Any image file as 8-bit RGB by one documented rule per mode, and never a FIFO or a device opened
- `tpu_vision.learner`: `learn.to_tpu()`: fastai training on a TPU at hand-written-loop speed
- `tpu_vision.loaders`: fastai's loaders made for an accelerator: one batch shape (the last one padded, never dropped), device prefetch that overlaps compute, one shard per replica
- `tpu_vision.manifests`: What it takes to feed an exported model: the manifest, read from the Learner and checked, and a `Predictor` that follows it
- `tpu_vision.models`: Torchvision and timm models by name on the XLA device, with pretrained weights that come from this machine only
- `tpu_vision.optim`: Mixed precision, gradient accumulation, clipping, checkpointing, optimizers and a non-finite guard that do the right thing on every backend
- `tpu_vision.parallel`: `learn.to_tpu(devices=8)`: every device of a host from one process (SPMD), sharded parameters (FSDPv2), DDP for GPUs
- `tpu_vision.portable`: fastai's `learn.export()` from any device: a `.pkl` that loads with fastai alone, read back only if this machine wrote it
- `tpu_vision.quantize`: int8 that agrees with the float model: PyTorch's dynamic and static int8, GPTQ rounding, calibration images, and the preparation OpenVINO's and LiteRT's int8 share
- `tpu_vision.recipe`: The main job's recipe, written once: its defaults, its `Learner`, and the versions a run records
- `tpu_vision.reporting`: What a run prints and leaves behind: one line per error and per epoch, names that can't forge output, JSON that any reader takes, the run's record
- `tpu_vision.safe`: Models to share: safetensors weights and ONNX graphs, each with its manifest; nothing in them runs when loaded
- `tpu_vision.sampling`: Resampling a batch through one matrix per image without `grid_sample`, and warp coefficients in closed form: the geometry that the device augmentation compiles into one graph
- `tpu_vision.step`: The training step on a device: sync-free callbacks, metrics and losses kept on the device, every graph named
- `tpu_vision.test_utils`: The small models, folders and processes the notebooks' tests share
- `tpu_vision.tune`: `tune(folder)`: the main job's training as Ray Tune trials, one per TPU chip, with bad trials stopped early
- `tpu_vision.vitis`: AMD's FPGAs and NPUs: an XINT8 ONNX model quantized by AMD Quark, for ONNX Runtime's Vitis AI execution provider"""

__version__ = "0.0.1"
