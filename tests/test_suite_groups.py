"""The suite's two groups, as pyproject.toml configures them: ``python -m pytest`` deselects the
tests marked ``slow``, ``python -m pytest -m slow`` runs exactly those, ``-m "slow or not slow"``
runs everything, and ``tests.helpers.sampled`` keeps the first value of each kind of a sweep in
the default run. Checked on a small test file of its own, with the repository's settings."""

import subprocess
import sys
import textwrap

from tests.helpers import ROOT, pythonpath

SAMPLE = '''
import pytest
from tests.helpers import sampled


def test_plain():
    pass


@pytest.mark.slow
def test_marked():
    pass


@pytest.mark.parametrize("n", sampled([1, 2, 3, 4, 5], key=lambda n: n % 2, ids=str))
def test_sweep(n):
    pass


@pytest.mark.parametrize("n", sampled([1, 2, 3, 4, 6], key=lambda n: [n % 2, f"3 divides: {n % 3 == 0}"],
                                       ids=str))
def test_kinds(n):
    pass


@pytest.mark.parametrize("n, m", sampled([pytest.param(1, 0, id="a"),
                                          pytest.param(2, 0, id="b", marks=pytest.mark.xfail),
                                          pytest.param(3, 1, id="c")], key=lambda v: v[1]))
def test_params(n, m):
    assert n != 2
'''


def collected(folder, *args: str) -> set[str]:
    r = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
                        "--rootdir", str(folder), "-p", "no:cacheprovider", "--collect-only", "-q", "-n", "0",
                        *args, str(folder / "test_sample.py")],
                       cwd=folder, capture_output=True, text=True, timeout=120,
                       env={"PYTHONPATH": pythonpath(), "PATH": "/usr/bin:/bin"})
    assert r.returncode in (0, 5), r.stdout + r.stderr  # 5: nothing selected
    return {line.split("::", 1)[1] for line in r.stdout.splitlines() if "::" in line}


def test_default_run_and_slow_group_split_the_suite(tmp_path):
    (tmp_path / "test_sample.py").write_text(textwrap.dedent(SAMPLE))
    fast, slow = collected(tmp_path), collected(tmp_path, "-m", "slow")
    everything = collected(tmp_path, "-m", "slow or not slow")
    assert fast == {"test_plain", "test_sweep[1]", "test_sweep[2]", "test_params[a]",
                    "test_params[c]", "test_kinds[1]", "test_kinds[2]", "test_kinds[3]"}
    assert slow == {"test_marked", "test_sweep[3]", "test_sweep[4]", "test_sweep[5]",
                    "test_params[b]", "test_kinds[4]", "test_kinds[6]"}
    assert fast | slow == everything and not fast & slow


def test_a_sampled_param_keeps_its_own_marks(tmp_path):
    (tmp_path / "test_sample.py").write_text(textwrap.dedent(SAMPLE))
    r = subprocess.run([sys.executable, "-m", "pytest", "-c", str(ROOT / "pyproject.toml"),
                        "--rootdir", str(tmp_path), "-p", "no:cacheprovider", "-q", "-m", "slow",
                        "-k", "test_params", str(tmp_path / "test_sample.py")],
                       cwd=tmp_path, capture_output=True, text=True, timeout=120,
                       env={"PYTHONPATH": pythonpath(), "PATH": "/usr/bin:/bin"})
    assert "1 xfailed" in r.stdout, r.stdout + r.stderr
