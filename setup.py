"""setuptools' entry: everything is in pyproject.toml but the compiled core (build_backend/roseking_build.py)."""
from roseking_build import setup_arguments
from setuptools import setup

setup(**setup_arguments())
