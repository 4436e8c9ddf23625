# Minimal shim: all metadata lives in pyproject.toml. Kept so `pip install -e .` and older tooling work.
from setuptools import setup
setup()
