"""The memory limit counts what a submission maps, not what JAX and its plugins reserve.

A machine with ``jax[cuda]`` installed imports the CUDA plugin's modules even with
``JAX_PLATFORMS=cpu``, and they reserve gigabytes of address space that nothing touches. The
stand-in here does the same on any machine: a JAX plugin module (``jax_plugins.standin_reserve``)
that maps 8 GiB with ``PROT_NONE`` when JAX searches for plugins. It lives in a virtual
environment made for the test on top of this one (``--system-site-packages``), and the judge runs
with that environment's Python, so its workers find the plugin as JAX would find an installed
one. An honest submission must be AC there, fresh worker or warm, sandboxed or not, and every
memory hog still MLE.
"""

import json
import os
import site
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest
from judge.run import imports
from tests.helpers import ROOT, case_count
from tests.hostile import ADVERSARIAL, needs_bwrap

from judge.worker import limits

ACCEPTED = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"
RESERVED = 8 << 30

STANDIN = textwrap.dedent(f"""\
    '''A stand-in for a GPU plugin: reserves address space it never touches, as CUDA's do.'''
    import mmap

    _RESERVATION = mmap.mmap(-1, {RESERVED}, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
                             prot=0)  # PROT_NONE


    def initialize():
        pass
    """)


@pytest.fixture(scope="module")
def plugin_python(tmp_path_factory) -> str:
    """The Python of a virtual environment holding the stand-in plugin and, through a ``.pth``
    file that adds them as site folders, this environment's packages (``--system-site-packages``
    would give the base installation's, not a virtual environment's)."""
    venv = tmp_path_factory.mktemp("standin") / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # and the folders the judge found JAX in (PYTHONPATH on a TPU VM), as its workers get them
    ours = [p for p in dict.fromkeys([*site.getsitepackages(), sysconfig.get_path("purelib"), *imports.roots()])
            if Path(p).is_dir()]
    (Path(purelib) / "parent_environment.pth").write_text(
        "".join(f"import site; site.addsitedir({p!r})\n" for p in ours))
    plugin = Path(purelib) / "jax_plugins" / "standin_reserve"
    plugin.mkdir(parents=True)
    (plugin / "__init__.py").write_text(STANDIN)
    return str(python)


def grade(python: str, submission: Path, problem: str = "fake_quant_ste", *, sandbox: str = "auto",
          warm: bool = True, examples_only: bool = True, memory_mb: int | None = None,
          gate: str = "off", tmp_path: Path) -> dict:
    """``judge grade`` run by ``python`` (the source gate off: most hogs would not pass it): its
    JSON report. ``memory_mb`` grades on a copy of the spec with that limit."""
    if memory_mb is not None:
        spec = (ROOT / "problems" / f"{problem}.yaml").read_text()
        assert "\nlimits:\n" in spec and "memory_mb" not in spec
        path = tmp_path / f"{problem}.yaml"
        path.write_text(spec.replace("\nlimits:\n", f"\nlimits:\n  memory_mb: {memory_mb}\n", 1))
        problem = str(path)
    env = {**os.environ, "JUDGE_WARM": "on" if warm else "off"}
    done = subprocess.run([python, "-m", "judge", "grade", str(submission), "--problem", problem,
                           "--format", "json", "--sandbox", sandbox, "--source-gate", gate,
                           *(["--examples-only"] if examples_only else [])],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def verdicts(report: dict) -> set[tuple[str, str]]:
    return {(case["verdict"], case["reason"]) for case in report["cases"]}


def test_the_standin_plugin_reserves_its_address_space(plugin_python):
    """Without this the tests below could not fail: JAX, started in that environment as a worker
    starts it, has mapped more than the 8 GiB the plugin reserves."""
    code = ("import jax; from judge.worker import limits; jax.devices(); "
            "import jax_plugins.standin_reserve; print(limits.address_space())")
    done = subprocess.run([plugin_python, "-I", "-c", f"import sys; sys.path.insert(0, {str(ROOT)!r}); {code}"],
                          env={**os.environ, "JAX_PLATFORMS": "cpu"}, capture_output=True, text=True,
                          timeout=120, check=True)
    assert int(done.stdout) > RESERVED


MODES = [pytest.param("none", False, id="none-fresh"), pytest.param("none", True, id="none-warm"),
         pytest.param("bwrap", False, id="bwrap-fresh", marks=needs_bwrap),
         pytest.param("bwrap", True, id="bwrap-warm", marks=needs_bwrap)]

#: Its scan is evaluated by JAX, so its worker starts JAX's CPU backend (and threads) under the
#: limit: with the limit counting the plugin's 8 GiB, that was RTE or MLE.
SCAN = ROOT / "submissions" / "ema_scan" / "accepted" / "scan_carry.py"


@pytest.mark.parametrize("sandbox, warm", MODES)
def test_an_honest_submission_is_accepted_beside_a_plugin_that_reserves_8_gib(
        plugin_python, tmp_path, sandbox, warm):
    report = grade(plugin_python, SCAN, "ema_scan", sandbox=sandbox, warm=warm, tmp_path=tmp_path)
    assert report["verdict"] == "AC", report
    assert verdicts(report) == {("AC", "ok")}


def test_the_readme_grade_command_is_accepted_beside_the_plugin(plugin_python, tmp_path):
    report = grade(plugin_python, ACCEPTED, examples_only=False, gate="on", tmp_path=tmp_path)
    assert report["verdict"] == "AC", report
    assert verdicts(report) == {("AC", "ok")} and len(report["cases"]) == case_count("fake_quant_ste")


HOGS = ["alloc_30gb_at_import.py", "alloc_30gb_jax.py", "alloc_unbounded.py",
        "alloc_growing_list.py", "alloc_jnp_zeros_1e9.py", "alloc_shared_mmap.py"]


#: The hogs' allowance: small, so that touching it all takes little time on a loaded machine.
HOG_MEMORY_MB = 256


@pytest.mark.parametrize("hog", HOGS)
def test_a_memory_hog_is_still_mle_beside_the_plugin(plugin_python, tmp_path, hog):
    report = grade(plugin_python, ADVERSARIAL / hog, sandbox="none", warm=False, memory_mb=HOG_MEMORY_MB,
                   tmp_path=tmp_path)
    assert report["verdict"] == "MLE", report
    assert {reason for _, reason in verdicts(report)} == {"memory_limit"}, report


@needs_bwrap
def test_a_memory_hog_is_mle_in_a_warm_sandboxed_worker_beside_the_plugin(plugin_python, tmp_path):
    report = grade(plugin_python, ADVERSARIAL / "alloc_shared_mmap.py", sandbox="bwrap", warm=True,
                   memory_mb=HOG_MEMORY_MB, tmp_path=tmp_path)
    assert report["verdict"] == "MLE", report


def test_the_cap_is_the_runtime_plus_the_allowance():
    """In a child process: the cap lands at what was mapped plus the allowance, an allocation
    within it succeeds and one past it fails with MemoryError. The child ends as a worker does,
    with os._exit: the runtime's own shutdown under the cap is not what a verdict depends on."""
    code = textwrap.dedent(f"""\
        import sys; sys.path[:0] = [{str(ROOT)!r}, *{list(imports.roots())!r}]
        import resource, jax, numpy as np
        from judge.worker import limits
        runtime = limits.limit_memory(256 << 20, jax)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        assert soft == hard and 0 <= soft - (runtime + (256 << 20)) < (1 << 20), (soft, runtime)
        kept = np.ones(64 << 20, np.uint8)
        try:
            np.ones(512 << 20, np.uint8)
        except MemoryError:
            print("refused", flush=True)
        import os; os._exit(0)
        """)
    done = subprocess.run([sys.executable, "-I", "-c", code], env={**os.environ, "JAX_PLATFORMS": "cpu"},
                          capture_output=True, text=True, timeout=120)
    assert done.stdout.strip() == "refused", (done.returncode, done.stdout, done.stderr)


def test_an_enomem_from_mmap_is_a_memory_limit():
    error = {"kind": "exception", "type": "OSError", "message": "[Errno 12] Cannot allocate memory"}
    assert limits.classify(error) == limits.MEMORY
