"""Workers import the JAX and NumPy the judge found, wherever it found them
(``judge.run.imports``): a Python without JAX, with JAX on PYTHONPATH (as TPU VM images, HPC
modules, Bazel and Nix install it), grades right, sandboxed and not."""

import json
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

import pytest

from judge.errors import WorkerImportError
from judge.run import imports, sandbox as sandboxing
from tests.helpers import ROOT, case_count

README_SUBMISSION = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"
JAX_FOLDER = str(Path(imports._entry_of("jax")))


@pytest.fixture(scope="module")
def bare_python(tmp_path_factory):
    """A Python of its own with nothing installed (no JAX, no NumPy)."""
    folder = tmp_path_factory.mktemp("nojax") / "venv"
    try:
        venv.EnvBuilder(with_pip=False, symlinks=True).create(folder)
    except Exception as exc:  # noqa: BLE001 - any failure means no venv can be made here
        pytest.skip(f"a virtual environment cannot be created here: {exc}")
    python = str(folder / "bin" / "python")
    found = subprocess.run([python, "-I", "-c", "import jax"], capture_output=True, text=True)
    assert found.returncode != 0 and "No module named 'jax'" in found.stderr
    return python


def _pythonpath(*first: str) -> str:
    """``first``, then every folder this Python imports packages from (its site-packages and its
    own PYTHONPATH: where JAX, PyYAML and jsonschema are), then the checkout."""
    stdlib = {os.path.dirname(os.__file__), os.path.join(os.path.dirname(os.__file__), "lib-dynload")}
    folders = [*first, JAX_FOLDER, *(p for p in sys.path if p and os.path.isdir(p) and p not in stdlib),
               str(ROOT)]
    return os.pathsep.join(dict.fromkeys(os.path.abspath(p) for p in folders))


def _env(tmp_path, **extra) -> dict:
    """An environment with JAX, the judge's requirements and the judge only on PYTHONPATH."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "JUDGE_", "VIRTUAL_ENV"))}
    return {**env, "PYTHONPATH": _pythonpath(),
            "JUDGE_CACHE_DIR": os.environ.get("JUDGE_CACHE_DIR") or str(tmp_path / "cache"), **extra}


def _modes():
    return ["none", pytest.param("bwrap", marks=pytest.mark.skipif(
        sandboxing.probe() is not None, reason=f"bwrap cannot run here: {sandboxing.probe()}"))]


def test_roots_are_the_folders_the_judge_found_jax_and_numpy_in():
    roots = imports.roots()
    assert JAX_FOLDER in roots
    assert str(imports._entry_of("numpy")) in roots
    assert all(os.path.isabs(r) for r in roots)
    # what the worker's path gets is only these roots and the judge's package folder, in front
    code = imports.path_code("/judge-parent") + "import sys, json; print(json.dumps(sys.path))"
    bare = json.loads(subprocess.run([sys.executable, "-I", "-c", "import sys, json; print(json.dumps(sys.path))"],
                                     capture_output=True, text=True, check=True).stdout)
    seen = json.loads(subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                                     check=True).stdout)
    added = [p for p in roots if p not in bare or p in imports.ahead()]
    assert seen == ["/judge-parent", *added, *(p for p in bare if p not in added)]


def test_a_worker_whose_own_path_finds_another_numpy_first_imports_the_judges(tmp_path):
    """A virtual environment whose ``.pth`` names a site folder holding another NumPy before the
    folders on the judge's PYTHONPATH: the judge imports PYTHONPATH's, and so do its workers
    (``python -I`` of that environment would find the other one first)."""
    folder = tmp_path / "venv"
    try:
        venv.EnvBuilder(with_pip=False, symlinks=True).create(folder)
    except Exception as exc:  # noqa: BLE001 - any failure means no venv can be made here
        pytest.skip(f"a virtual environment cannot be created here: {exc}")
    python = str(folder / "bin" / "python")
    other = tmp_path / "other-site"
    (other / "numpy").mkdir(parents=True)
    (other / "numpy" / "__init__.py").write_text("raise ImportError('not the NumPy the judge uses')\n")
    purelib = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
                             capture_output=True, text=True, check=True).stdout.strip()
    (Path(purelib) / "site_folders.pth").write_text(
        "".join(f"import site; site.addsitedir({p!r})\n" for p in [str(other), *_pythonpath().split(os.pathsep)]))
    done = subprocess.run([python, "-m", "judge", "grade", str(README_SUBMISSION), "--problem", "fake_quant_ste",
                           "--sandbox", "none", "--format", "json", "--examples-only"],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert json.loads(done.stdout)["verdict"] == "AC"


@pytest.mark.parametrize("mode", _modes())
def test_a_python_without_jax_grades_with_the_jax_on_pythonpath(bare_python, tmp_path, mode):
    done = subprocess.run([bare_python, "-m", "judge", "grade", str(README_SUBMISSION),
                           "--problem", "fake_quant_ste", "--sandbox", mode, "--format", "json"],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    report = json.loads(done.stdout)
    assert report["verdict"] == "AC"
    assert len(report["cases"]) == case_count("fake_quant_ste") and {c["verdict"] for c in report["cases"]} == {"AC"}
    assert "warm workers unavailable" not in done.stderr  # the warm server imported JAX too


@pytest.mark.parametrize("mode", _modes())
def test_a_python_without_jax_grades_a_batch_right(bare_python, tmp_path, mode):
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copyfile(README_SUBMISSION, folder / "ada.py")
    wrong = sorted((ROOT / "submissions" / "fake_quant_ste" / "wrong_answer").glob("*.py"))[0]
    shutil.copyfile(wrong, folder / "bob.py")
    done = subprocess.run([bare_python, "-m", "judge", "batch", str(folder), "-p", "fake_quant_ste",
                           "-j", "2", "--sandbox", mode, "--format", "json", "--out", str(tmp_path / "r.json"),
                           "--journal", str(tmp_path / "journal")],
                          cwd=tmp_path, env=_env(tmp_path), capture_output=True, text=True, timeout=300)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    report = json.loads((tmp_path / "r.json").read_text())
    verdicts = {r["submission"].removesuffix(".py"): r["verdict"] for r in report["results"]}
    assert verdicts == {"ada": "AC", "bob": "WA"}, report


def test_a_worker_that_cannot_import_jax_is_one_clear_error(bare_python, monkeypatch):
    monkeypatch.setattr(imports, "roots", lambda: ())  # as if the roots were not passed on
    monkeypatch.setattr(imports, "_checked", {})
    with pytest.raises(WorkerImportError) as caught:
        imports.check(bare_python)
    text = str(caught.value)
    assert bare_python in text and "jax not found" in text and f" in {JAX_FOLDER}" in text


def test_the_judge_says_so_once_instead_of_failing_every_case(bare_python, tmp_path):
    # The judge's own Python finds JAX on PYTHONPATH; the workers are told to use another one
    # that cannot, by a sitecustomize that only the judge runs (the workers' -I skips none of
    # site, but this one lives on PYTHONPATH, which they do not see).
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(
        "import judge.run.imports as i\ni.roots = lambda: ()\n")
    done = subprocess.run([bare_python, "-m", "judge", "grade", str(README_SUBMISSION),
                           "--problem", "fake_quant_ste", "--sandbox", "none"], cwd=tmp_path,
                          env={**_env(tmp_path), "PYTHONPATH": _pythonpath(str(hook))},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, (done.stdout[-1000:], done.stderr[-1000:])
    assert f"ml_dtypes in {JAX_FOLDER}" in done.stderr and "IE" not in done.stdout


def test_a_batch_whose_workers_cannot_import_jax_stops_at_once(bare_python, tmp_path):
    hook = tmp_path / "hook"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text("import judge.run.imports as i\ni.roots = lambda: ()\n")
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copyfile(README_SUBMISSION, folder / "ada.py")
    done = subprocess.run([bare_python, "-m", "judge", "batch", str(folder), "-p", "fake_quant_ste",
                           "--sandbox", "none", "--out", str(tmp_path / "r.json"), "--format", "json",
                           "--journal", str(tmp_path / "journal")], cwd=tmp_path,
                          env={**_env(tmp_path), "PYTHONPATH": _pythonpath(str(hook))},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 2, (done.stdout[-1000:], done.stderr[-1000:])
    assert f"ml_dtypes in {JAX_FOLDER}" in done.stderr
    assert not (tmp_path / "r.json").exists()  # no report of IE rows


def test_the_workers_modules_get_their_bytecode_unless_python_writes_none(tmp_path, monkeypatch):
    folder = tmp_path / "worker"
    folder.mkdir()
    (folder / "main.py").write_text("VALUE = 1\n")
    monkeypatch.setattr(imports, "WORKER_PACKAGE", folder)
    monkeypatch.setattr(sys, "dont_write_bytecode", True)
    imports.compile_worker()
    assert not (folder / "__pycache__").exists()  # -B, $PYTHONDONTWRITEBYTECODE: nothing written
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    imports.compile_worker()
    assert [p.name.split(".")[0] for p in (folder / "__pycache__").iterdir()] == ["main"]


def test_the_worker_package_is_the_one_workers_import():
    assert imports.WORKER_PACKAGE == sandboxing.PACKAGE_DIR / "worker"
    assert (imports.WORKER_PACKAGE / "main.py").is_file()


def test_a_servers_answer_agrees_only_when_it_names_the_judges_own_files():
    from judge.worker import forkserver

    judge = imports.origins()
    assert all(judge[m] for m in imports.CHECKED)
    theirs = forkserver.origins(list(imports.CHECKED))  # this process: JAX imported or not
    assert theirs == judge and imports.agrees(theirs)
    for other in (None, [], {}, {**judge, "jax": None}, {**judge, "numpy": "/elsewhere/numpy.py"},
                  {m: p for m, p in judge.items() if m != "ml_dtypes"}):
        assert not imports.agrees(other), other
    assert forkserver.origins(["json", "no_such_module_here", 7]) == {
        "json": os.path.realpath(json.__file__), "no_such_module_here": None}
    assert forkserver.origins(None) == {}
