# Sourced by case_c.sh and recipes.sh on the GPU machine: fastai's carried wheels (prepare.sh) into /tmp/site, this
# checkout and them on the path, unbuffered output, the carried data as $TPU_VISION_HOME.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .whl/*.whl || exit 1
export PYTHONPATH=/tmp/site:$PWD PYTHONUNBUFFERED=1 TPU_VISION_HOME=$PWD/.gpu_data
