"""A spec that passed the schema is remembered by its exact text; loading it again skips the YAML
and the schema, and anything else is still checked in full (``judge.problem.spec_cache``)."""

import json

import pytest

from tests.helpers import ROOT
from judge.errors import SpecError
from judge.problem import spec, spec_cache


@pytest.fixture
def cache_root(tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("JUDGE_CACHE", raising=False)
    return tmp_path / "cache"


def copy_spec(tmp_path, text=None):
    path = tmp_path / "fake_quant_ste.yaml"
    path.write_text(text if text is not None else (ROOT / "problems" / "fake_quant_ste.yaml").read_text())
    return path


def test_second_load_reads_no_yaml_and_gives_the_same_problem(tmp_path, cache_root, monkeypatch):
    path = copy_spec(tmp_path)
    first = spec.load(path)
    assert len(list((cache_root / "specs").glob("*.json"))) == 1

    def no_yaml(*args, **kwargs):
        raise AssertionError("the YAML was parsed again")

    monkeypatch.setattr(spec, "read_yaml", no_yaml)
    monkeypatch.setattr(spec, "schema_violations", no_yaml)
    again = spec.load(path)
    assert repr(again.raw) == repr(first.raw)  # key order too: a dict output's fields keep theirs
    assert [f.name for f in again.fields] == [f.name for f in first.fields] == ["values", "grads"]
    assert [c.name for c in again.cases] == [c.name for c in first.cases]
    assert all((again.cases[i].inputs[k] == first.cases[i].inputs[k]).all()
               for i in (0, -1) for k in ("x", "cotangent"))


def test_a_changed_spec_is_checked_in_full(tmp_path, cache_root):
    path = copy_spec(tmp_path)
    spec.load(path)
    path.write_text(path.read_text().replace("entry_point: fake_quant_ste", "entry_pont: fake_quant_ste"))
    with pytest.raises(SpecError) as err:
        spec.load(path)
    assert "entry_pont" in str(err.value) and err.value.line is not None


def test_a_bad_entry_is_reported_from_the_yaml_with_its_line(tmp_path, cache_root):
    """An entry that does not build (edited by hand, say) never hides the spec's own state: the
    spec is parsed and checked as if there were none."""
    text = (ROOT / "problems" / "fake_quant_ste.yaml").read_text().replace(
        "entry_point: fake_quant_ste", "entry_point: 7")
    path = copy_spec(tmp_path, text)
    with pytest.raises(SpecError) as first:
        spec.load(path)
    assert not list((cache_root / "specs").glob("*.json"))  # failed: not remembered
    good = json.loads(json.dumps(spec.read_yaml(ROOT / "problems" / "fake_quant_ste.yaml")[0]))
    good["parameters"] = "not a list"
    folder = cache_root / "specs"
    folder.mkdir(parents=True)
    (folder / spec_cache._name(text, spec.SCHEMA_PATH)).write_text(json.dumps(good))
    with pytest.raises(SpecError) as again:
        spec.load(path)
    assert (again.value.field, again.value.line) == (first.value.field, first.value.line)


def test_data_json_would_change_is_not_remembered(tmp_path, cache_root):
    spec_cache.remember("a: .nan", spec.SCHEMA_PATH, {"a": float("nan")})
    spec_cache.remember("1: x", spec.SCHEMA_PATH, {1: "x"})
    spec_cache.remember("a: [1, 2]", spec.SCHEMA_PATH, {"a": (1, 2)})
    assert not (cache_root / "specs").exists() or not list((cache_root / "specs").glob("*.json"))


def test_off_with_the_compilation_cache(tmp_path, cache_root, monkeypatch):
    monkeypatch.setenv("JUDGE_CACHE", "off")
    spec.load(copy_spec(tmp_path))
    assert not (cache_root / "specs").exists()
