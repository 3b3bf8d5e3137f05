import os
import signal
import sys
from pathlib import Path

import pytest

from tests.helpers import ROOT

sys.path.insert(0, str(ROOT))

# The tests' own JAX (the worker's modules, tested in this process) runs on the CPU, as the
# judge's workers do: on a TPU or GPU machine it must neither take the accelerator from another
# program nor compute other values than the expected ones.
os.environ["JAX_PLATFORMS"] = "cpu"

# The tests that stop a command with Ctrl-C send its process SIGINT. A shell starts a command
# run in the background (`python -m pytest &`, nohup) with SIGINT ignored, and an ignored signal
# stays ignored across exec, so every command the tests start would ignore it too. A handler of
# this process's own is reset to the default in each child at exec, as a terminal's would be.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)

from judge.problem import spec  # noqa: E402
from judge.run import sandbox  # noqa: E402

# `judge grade`, `judge batch` and `judge service` grade nothing without the bwrap sandbox unless
# told to. Where it cannot run (a machine without bubblewrap; not CI, which sets
# JUDGE_REQUIRE_BWRAP), the suite tells them, as a user would, so that the tests of everything
# else still run; the tests of the sandbox itself skip there (tests/hostile.py).
if (os.environ.get("JUDGE_REQUIRE_BWRAP") != "1" and not os.environ.get(sandbox.ENV_VAR)
        and sandbox.probe() is not None):
    os.environ[sandbox.ENV_VAR] = "none"


@pytest.fixture(scope="session")
def root() -> Path:
    return ROOT


@pytest.fixture(scope="session")
def fq_problem():
    return spec.load(ROOT / "problems" / "fake_quant_ste.yaml")
