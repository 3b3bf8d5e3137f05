import os
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

sys.path.insert(0, str(ROOT))

# The tests' own JAX (the worker's modules, tested in this process) runs on the CPU, as the
# judge's workers do: on a TPU or GPU machine it must neither take the accelerator from another
# program nor compute other values than the expected ones.
os.environ["JAX_PLATFORMS"] = "cpu"

from judge.problem import spec  # noqa: E402


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def fq_problem():
    return spec.load(ROOT / "problems" / "fake_quant_ste.yaml")
