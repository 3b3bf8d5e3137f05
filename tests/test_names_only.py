"""The warm server imports JAX with ``importlib.metadata.distributions`` answering names from
the header lines (``judge.worker.names_only``): the same names as the e-mail parser gives, or
the parser's own answer wherever the short reading is unsure, and the standard library's
function back afterwards, also where a module took it by name meanwhile."""

import email
import importlib.metadata
import subprocess
import sys

import pytest

from judge.worker import names_only
from tests.helpers import ROOT

TEXTS = [
    "Metadata-Version: 2.1\nName: plain\nVersion: 1.0\n\nBody: not a header\n",
    "Name:   blanks before \t\nVersion: 1\n",
    "NAME: upper\r\nVersion: 1\r\n\r\n",
    "name: lower\rVersion: 1\r",
    "Summary: one\n  folded summary\nName: after-a-fold\n",
    "Name: folded\n name\nVersion: 1\n",        # the parser joins the lines: unsure
    "Name: folded-tab\n\tname\n",
    "Version: 1\n\nName: in-the-body\n",        # no Name header
    "From someone\nName: after-a-from-line\n",   # an envelope line
    "not a header\nName: after-junk\n",
    "Name: first\nName: second\n",
    "Name: form\x0cfeed\nVersion: 1\n",         # \x0c ends no line for the parser
    "Name: jax-rocm7-plugin\nVersion: 0.1\n",
    "",
]


@pytest.mark.parametrize("text", TEXTS)
def test_a_name_is_the_parsers_or_unsure(text, tmp_path):
    (tmp_path / "METADATA").write_bytes(text.encode())
    parsed = importlib.metadata.PathDistribution(tmp_path).metadata.get("Name", "")
    assert parsed == email.message_from_string(text).get("Name", "") or "\n" in parsed
    quick = names_only.name_of(text)
    assert quick is None or quick == parsed
    if text.startswith(("Metadata-Version", "NAME", "name", "Name: jax", "Name: first")):
        assert quick == parsed  # the ordinary forms are read, not left to the parser


def test_every_installed_distribution_gets_the_same_name():
    real = [d.metadata.get("Name", "") for d in importlib.metadata.distributions()]
    with names_only.quick_names():
        quick = [d.metadata.get("Name", "") for d in importlib.metadata.distributions()]
        dists = list(importlib.metadata.distributions())
    assert quick == real and len(real) > 5
    # anything else asked is the distribution's own
    assert [d.version for d in dists] == [d.version for d in importlib.metadata.distributions()]
    assert [d.metadata.get("Version") for d in dists[:5]] == \
        [d.metadata.get("Version") for d in list(importlib.metadata.distributions())[:5]]


def test_a_plugin_on_the_path_is_found_as_it_would_be(tmp_path):
    info = tmp_path / "jax_rocm7_plugin-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: jax-rocm7-plugin\nVersion: 0.1\n")
    (tmp_path / "odd-1.0.dist-info").mkdir()
    (tmp_path / "odd-1.0.dist-info" / "METADATA").write_text("Name: odd\n  folded\n")

    def plugins():
        return sorted(n for d in importlib.metadata.distributions(path=[str(tmp_path)])
                      if (n := d.metadata.get("Name", "")).startswith("jax-rocm")
                      and n.endswith("-plugin") or "odd" in n)

    real = plugins()
    with names_only.quick_names():
        assert plugins() == real and "jax-rocm7-plugin" in real and len(real) == 2


def test_the_standard_librarys_function_is_back_also_where_it_was_taken_by_name(tmp_path):
    (tmp_path / "takes_it.py").write_text("from importlib.metadata import distributions\n")
    sys.path.insert(0, str(tmp_path))
    try:
        real = importlib.metadata.distributions
        with names_only.quick_names():
            assert importlib.metadata.distributions is not real
            import takes_it
        assert importlib.metadata.distributions is real and takes_it.distributions is real
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("takes_it", None)


def test_jax_imported_so_finds_what_a_plain_import_finds():
    probe = ("import importlib.metadata as m, sys; sys.path.insert(0, %r)\n"
             "from judge.worker.names_only import quick_names\n"
             "QUICK\n"
             "import jax._src.numpy.array_constructors as a\n"
             "print(a.rocm_plugin_extension, a.distributions is m.distributions)\n")
    outputs = []
    for quick in ("with quick_names():\n    import jax", "import jax"):
        done = subprocess.run([sys.executable, "-I", "-c", probe.replace("QUICK", quick) % str(ROOT)],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr[-2000:]
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] == "None True\n"
