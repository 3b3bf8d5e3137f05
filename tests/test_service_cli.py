"""The ``judge service`` command's own behaviour: a clear message without the service extra,
its options refused with their reasons, and ``judge serve`` still reaching ``judge warm``."""

import pytest

from judge import cli
from judge.service import main as service_main
from tests.helpers import judge


def test_without_the_service_extra_it_says_what_to_install(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(service_main, "missing", lambda: ["fastapi", "huey"])
    assert cli.main(["service", "--data", str(tmp_path / "data")]) == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "missing here: fastapi, huey" in err and "pip install 'jax-judge[service]'" in err
    assert not (tmp_path / "data").exists()


def test_a_grader_needs_a_worker(tmp_path, capsys):
    pytest.importorskip("huey", reason="the service extra is not installed")
    assert cli.main(["service", "--grader-only", "--workers", "0",
                     "--data", str(tmp_path / "d")]) == cli.EXIT_ERROR
    assert "--grader-only needs --workers 1 or more" in capsys.readouterr().err


def test_a_queue_that_is_not_redis_is_refused(tmp_path, capsys):
    pytest.importorskip("huey", reason="the service extra is not installed")
    code = cli.main(["service", "--grader-only", "--queue", "amqp://host/",
                     "--data", str(tmp_path / "d")])
    assert code == cli.EXIT_ERROR
    err = capsys.readouterr().err
    assert "--queue amqp://host/: a Redis URL is expected" in err and "internal error" not in err


def test_judge_serve_is_judge_warm_under_its_former_name():
    warm, serve = judge("warm", "-h"), judge("serve", "-h")
    assert warm.returncode == serve.returncode == 0
    assert "--idle-timeout" in serve.stdout
    assert warm.stdout.split("\n", 1)[1] == serve.stdout.split("\n", 1)[1]  # but the usage line
