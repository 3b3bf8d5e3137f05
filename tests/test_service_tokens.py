"""Tokens with labels and roles (judge/service/tokens.py, judge/service/auth.py): `judge service
tokens add|list|revoke`, picked up by a running service without a restart; an instructor token
lists every user's submissions and downloads the class's CSV; a student token sees its own only."""

import csv
import io
import json
import os
import stat
import subprocess
import sys

import pytest

from judge.errors import JudgeError
from judge.service import auth, tokens
from tests.helpers import ROOT
from tests.test_batch_class import DISGUISED, HONEST, OTHER

PLAIN = "p" * 24


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "judge", "service", "tokens", *args],
                          capture_output=True, text=True, timeout=60, cwd=ROOT)


def test_the_commands_keep_only_a_hash_in_a_file_only_its_owner_reads(tmp_path):
    data = tmp_path / "data"
    added = run_cli("add", "--label", "Ann Lee", "--data", str(data))
    assert added.returncode == 0, added.stderr
    token = added.stdout.strip()
    assert len(token) >= auth.MIN_LENGTH and "shown this once" in added.stderr
    path = data / auth.FILE_NAME
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    text = path.read_text()
    assert token not in text and auth.owner(token) in text
    prof = run_cli("add", "--label", "prof", "--role", "instructor", "--data", str(data))
    assert prof.returncode == 0, prof.stderr
    listed = run_cli("list", "--data", str(data))
    assert listed.returncode == 0 and token not in listed.stdout
    assert prof.stdout.strip() not in listed.stdout
    assert f"{auth.owner(token)[:12]}  student     Ann Lee" in listed.stdout
    assert "instructor  prof" in listed.stdout
    again = run_cli("add", "--label", "Ann Lee", "--data", str(data))
    assert again.returncode == 2 and "exists already" in again.stderr
    gone = run_cli("revoke", auth.owner(token)[:10], "--data", str(data))  # by id
    assert gone.returncode == 0, gone.stderr
    assert "Ann Lee" not in run_cli("list", "--data", str(data)).stdout
    assert run_cli("revoke", "Ann Lee", "--data", str(data)).returncode == 2
    assert run_cli("revoke", "prof", "--data", str(data)).returncode == 0  # by label
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600


def test_an_existing_token_file_keeps_working_and_keeps_its_lines(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    path = data / auth.FILE_NAME
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, f"# ours\n{PLAIN}\n".encode())
    os.close(fd)
    token = tokens.add(data, "bo")
    assert path.read_text().startswith(f"# ours\n{PLAIN}\n")
    check = auth.Tokens.watching(data)
    assert check.identify(f"Bearer {PLAIN}") == auth.Entry(auth.owner(PLAIN))
    assert check.identify(f"Bearer {token}") == auth.Entry(auth.owner(token), "student", "bo")
    assert [e.label for e in tokens.listed(data)] == ["", "bo"]
    assert tokens.revoke(data, auth.owner(PLAIN)[:8]).label == ""  # a plain line, by its id
    assert path.read_text() == "# ours\n" + auth.hashed_line(auth.Entry(auth.owner(token), "student", "bo")) + "\n"


@pytest.mark.parametrize("line, why", [
    ("sha256:abc student x", "64 hex"), ("sha256:" + "a" * 64 + " admin x", "64 hex"),
    ("sha256:" + "a" * 64 + " student", "label"), ("short", "at least"),
])
def test_a_malformed_line_is_refused_with_the_file_named(tmp_path, line, why):
    path = tmp_path / auth.FILE_NAME
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, (line + "\n").encode())
    os.close(fd)
    with pytest.raises(JudgeError, match=why) as err:
        auth.read_file(path)
    assert str(path) in str(err.value)
    with pytest.raises(JudgeError):
        tokens.add(tmp_path, "new")  # nothing added to a file that is not right


def test_a_bad_label_or_role_is_refused(tmp_path):
    for label in ("", "a\nb", "x" * 101, "tab\there"):
        with pytest.raises(JudgeError, match="label"):
            tokens.add(tmp_path, label)
    with pytest.raises(JudgeError, match="role"):
        tokens.add(tmp_path, "ok", role="admin")


# --- the service -----------------------------------------------------------------------------

fastapi = pytest.importorskip("fastapi", reason="the service extra is not installed")
pytest.importorskip("huey", reason="the service extra is not installed")


def _report(verdict, score, groups, hint=""):
    cases = [{"index": i, "number": i, "visibility": "hidden", "verdict": v, "reason": "ok"
              if v == "AC" else "wrong_value", "message": ""} for i, v in enumerate(groups)]
    report = {"version": 5, "problem": "fake_quant_ste", "verdict": verdict,
              "reason": "ok" if verdict == "AC" else "wrong_value", "message": "m",
              "time_s": 1.0, "source_gate": True, "cases": cases, "score": score,
              "max_score": 100, "zeroed_by": None,
              "groups": [{"name": f"g{i}", "score": 50 if v == "AC" else 0, "max_score": 50,
                          "cases": [i]} for i, v in enumerate(groups)]}
    return json.dumps({**report, **({"hint": hint} if hint else {})})


@pytest.fixture()
def service(tmp_path, monkeypatch):
    from fastapi.testclient import TestClient

    from judge.service.app import ServiceSettings, create_app

    monkeypatch.delenv(auth.ENV_VAR, raising=False)
    data = tmp_path / "data"
    keys = {name: tokens.add(data, name) for name in ("ann", "bea", "cy")}
    keys["prof"] = tokens.add(data, "prof", role="instructor")
    app = create_app(ServiceSettings(data=data, recorder=False, root=ROOT))
    with TestClient(app) as c:
        yield c, data, {k: {"Authorization": f"Bearer {v}"} for k, v in keys.items()}


def _submit(c, who, source, problem="fake_quant_ste"):
    r = c.post("/api/v1/submissions", json={"problem": problem, "source": source}, headers=who)
    assert r.status_code == 202, r.text
    return r.json()["id"]


def test_an_instructor_sees_every_users_submissions_and_a_student_only_theirs(service):
    c, _, h = service
    ann = _submit(c, h["ann"], HONEST)
    bea = _submit(c, h["bea"], DISGUISED)
    listing = c.get("/api/v1/submissions", headers=h["prof"]).json()
    assert [(s["id"], s["user"]) for s in listing["submissions"]] == [(bea, "bea"), (ann, "ann")]
    mine = c.get("/api/v1/submissions", headers=h["ann"]).json()["submissions"]
    assert [s["id"] for s in mine] == [ann] and "user" not in mine[0]
    assert c.get(f"/api/v1/submissions/{bea}", headers=h["ann"]).status_code == 404
    read = c.get(f"/api/v1/submissions/{bea}", headers=h["prof"])
    assert read.status_code == 200 and read.json()["source"] == DISGUISED


def test_the_class_csv_is_the_batch_reports_columns_a_row_per_user(service):
    c, _, h = service
    store = c.app.state.store
    graded = {"ann": (HONEST, "AC", 100, "AC AC"), "bea": (DISGUISED, "AC", 100, "AC AC"),
              "cy": (OTHER, "WA", 50, "AC WA")}
    for name, (source, verdict, score, cases) in graded.items():
        old = _submit(c, h[name], "# an earlier try\n" + source)
        store.record(old, 1, "WA", _report("WA", 0, ["WA", "WA"]))
        sub = _submit(c, h[name], source)
        store.record(sub, 1, verdict, _report(verdict, score, cases.split(),
                                              "Mind the ends." if verdict == "WA" else ""))
    _submit(c, h["cy"], "# still queued\n")  # not graded yet: the row stays the graded one
    assert c.get("/api/v1/problems/fake_quant_ste/class.csv", headers=h["ann"]).status_code == 403
    assert c.get("/api/v1/problems/nope/class.csv", headers=h["prof"]).status_code == 404
    r = c.get("/api/v1/problems/fake_quant_ste/class.csv", headers=h["prof"])
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(r.text)))
    assert list(rows[0]) == ["submission", "verdict", "reason", "passed", "total", "score",
                             "max_score", "time_s", "message", "source_gate", "hint",
                             "similar_to", "group:g0", "group:g1"]
    by = {row["submission"]: row for row in rows}
    assert sorted(by) == ["ann", "bea", "cy"]
    assert (by["cy"]["verdict"], by["cy"]["score"], by["cy"]["group:g1"]) == ("WA", "50", "0")
    assert by["cy"]["hint"] == "Mind the ends."
    assert by["ann"]["similar_to"] == "bea" and by["cy"]["similar_to"] == ""


def test_tokens_added_and_revoked_are_picked_up_without_a_restart(service):
    c, data, h = service
    assert c.get("/api/v1/problems", headers=h["cy"]).status_code == 200
    tokens.revoke(data, "cy")
    assert c.get("/api/v1/problems", headers=h["cy"]).status_code == 401
    ta = {"Authorization": f"Bearer {tokens.add(data, 'ta', role='instructor')}"}
    assert c.get("/api/v1/problems/fake_quant_ste/class.csv", headers=ta).status_code == 200
    tokens.revoke(data, "prof")
    assert c.get("/api/v1/submissions", headers=h["prof"]).status_code == 401


# --- end to end: the real service, graded for real, against judge batch ------------------------

#: closure_vjp.py with new names and comments, its rules in another order.
COPIED = '''import jax.numpy as jnp
import jax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    # straight-through estimator, my own version
    def backward(keep, ct):
        return (jnp.where(keep, ct, jnp.zeros_like(ct)),)

    def forward(inp):
        ratio = inp / scale
        keep = (ratio >= qmin) & (ratio <= qmax)
        return scale * jnp.clip(jnp.round(ratio), qmin, qmax), keep

    @jax.custom_vjp
    def fq(inp):
        return scale * jnp.clip(jnp.round(inp / scale), qmin, qmax)

    fq.defvjp(forward, backward)

    out, vjp_fn = jax.vjp(fq, x)
    (g,) = vjp_fn(cotangent)
    return {"values": out, "grads": g}
'''


@pytest.mark.slow
def test_a_class_on_the_service_gives_judge_batchs_csv(tmp_path):
    from tests.test_service_e2e import FQ, running

    httpx = pytest.importorskip("httpx")
    data = tmp_path / "data"
    sources = {"ann": (FQ / "accepted" / "closure_vjp.py").read_text(), "ben": COPIED,
               "cy": (FQ / "wrong_answer" / "strict_mask.py").read_text()}
    keys = {name: run_cli("add", "--label", name, "--data", str(data)).stdout.strip()
            for name in ("ann", "ben")}
    prof = run_cli("add", "--label", "prof", "--role", "instructor", "--data", str(data))
    keys["prof"] = prof.stdout.strip()
    with running(data, "--workers", "2", token=None) as service:
        keys["cy"] = run_cli("add", "--label", "cy", "--data", str(data)).stdout.strip()  # while it runs
        ids = []
        for name, source in sources.items():
            r = httpx.post(service.url + "/api/v1/submissions", timeout=60,
                           headers={"Authorization": f"Bearer {keys[name]}"},
                           json={"problem": "fake_quant_ste", "source": source})
            assert r.status_code == 202, r.text
            ids.append(r.json()["id"])
        service.token = keys["prof"]  # an instructor reads every submission
        service.wait_done(ids)
        got = httpx.get(service.url + "/api/v1/problems/fake_quant_ste/class.csv", timeout=60,
                        headers=service.headers())
        assert got.status_code == 200, got.text
    cls = tmp_path / "class"
    cls.mkdir()
    for name, source in sources.items():
        (cls / f"{name}.py").write_text(source)
    local = subprocess.run([sys.executable, "-m", "judge", "batch", str(cls), "-p", "fake_quant_ste",
                            "--format", "csv", "--out", str(tmp_path / "local.csv"),
                            "--journal", str(tmp_path / "j.jsonl")],
                           capture_output=True, text=True, timeout=900, cwd=ROOT)
    assert local.returncode == 0, local.stderr
    ours = list(csv.DictReader(io.StringIO(got.text)))
    theirs = list(csv.DictReader(io.StringIO((tmp_path / "local.csv").read_text())))
    assert list(ours[0]) == list(theirs[0])
    drop = lambda rows: [{k: v for k, v in r.items() if k != "time_s"} for r in rows]  # noqa: E731
    assert drop(ours) == drop(theirs)
    assert [(r["submission"], r["similar_to"]) for r in ours] == [("ann", "ben"), ("ben", "ann"),
                                                                   ("cy", "")]
    assert ours[2]["hint"].startswith("Both ends of the range get the gradient")
