import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

sys.path.insert(0, str(ROOT))

from judge.problem import spec  # noqa: E402


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def fq_problem():
    return spec.load(ROOT / "problems" / "fake_quant_ste.yaml")
