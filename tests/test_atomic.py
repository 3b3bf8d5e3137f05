"""``judge.atomic.write_text``: the whole text or the old file, never a mix; durable by default,
and without the waits on the disk for a cache's entries."""

import os

import pytest

from judge import atomic


def _count_fsyncs(monkeypatch) -> list:
    calls = []
    real = os.fsync

    def counted(fd):
        calls.append(fd)
        return real(fd)

    monkeypatch.setattr(os, "fsync", counted)
    return calls


def test_a_durable_write_waits_for_the_text_and_the_rename(tmp_path, monkeypatch):
    calls = _count_fsyncs(monkeypatch)
    atomic.write_text(tmp_path / "a.json", "{}")
    assert (tmp_path / "a.json").read_text() == "{}"
    assert len(calls) == 2


def test_a_cache_entry_is_written_whole_without_waiting_for_the_disk(tmp_path, monkeypatch):
    calls = _count_fsyncs(monkeypatch)
    (tmp_path / "a.json").write_text("old")
    atomic.write_text(tmp_path / "a.json", "new", durable=False)
    assert (tmp_path / "a.json").read_text() == "new"
    assert calls == []
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]  # no temporary file left


def test_a_failed_write_leaves_the_old_file(tmp_path, monkeypatch):
    (tmp_path / "a.json").write_text("old")

    def refuse(*args):
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(OSError):
        atomic.write_text(tmp_path / "a.json", "new", durable=False)
    assert (tmp_path / "a.json").read_text() == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]
