"""The service's HTTP API in process (FastAPI's test client), without graders: authentication,
the status codes of every refusal, the per-token limits, problems as JSON, and who sees which
submission. Grading through the API is in tests/test_service_e2e.py."""

import json
import logging
import os
import re
import stat

import pytest

pytest.importorskip("fastapi", reason="the service extra is not installed "
                                      "(pip install -e '.[service]')")
pytest.importorskip("huey", reason="the service extra is not installed")

from fastapi.testclient import TestClient  # noqa: E402

from judge.errors import JudgeError  # noqa: E402
from judge.gate import MAX_SOURCE_BYTES  # noqa: E402
from judge.problem import spec  # noqa: E402
from judge.reports import show  # noqa: E402
from judge.service import auth  # noqa: E402
from judge.service.app import STATIC, ServiceSettings, create_app  # noqa: E402
from judge.service.limits import Limits, RateLimiter  # noqa: E402
from tests.helpers import ROOT  # noqa: E402

TOKEN, OTHER = "t" * 24, "o" * 24
AUTH = {"Authorization": f"Bearer {TOKEN}"}
OTHER_AUTH = {"Authorization": f"Bearer {OTHER}"}
SOURCE = (ROOT / "submissions/fake_quant_ste/accepted/closure_vjp.py").read_text()


def client(tmp_path, **limits) -> TestClient:
    app = create_app(ServiceSettings(data=tmp_path / "data", tokens=(TOKEN, OTHER),
                                     limits=Limits(**limits), recorder=False, root=ROOT))
    return TestClient(app)


@pytest.fixture(scope="module")
def api(tmp_path_factory):
    with client(tmp_path_factory.mktemp("service")) as c:
        yield c


def submit(c, body, headers=AUTH):
    return c.post("/api/v1/submissions", json=body, headers=headers)


# --- authentication ------------------------------------------------------------------------

@pytest.mark.parametrize("headers", [
    {}, {"Authorization": "Bearer"}, {"Authorization": "Bearer wrong-token-0123456789"},
    {"Authorization": f"Basic {TOKEN}"}, {"Authorization": TOKEN},
    {"Authorization": f"Bearer {TOKEN}x"}, {"Authorization": f"Bearer {TOKEN[:-1]}"},
])
@pytest.mark.parametrize("method,path", [
    ("POST", "/api/v1/submissions"), ("GET", "/api/v1/submissions/abc"),
    ("GET", "/api/v1/submissions"),
    ("GET", "/api/v1/problems"), ("GET", "/api/v1/problems/fake_quant_ste"),
])
def test_every_call_without_a_valid_token_is_401(api, headers, method, path):
    body = {"problem": "fake_quant_ste", "source": SOURCE} if method == "POST" else None
    r = api.request(method, path, headers=headers, json=body)
    assert r.status_code == 401, r.text
    assert "Bearer" in r.json()["error"] and r.headers["www-authenticate"] == "Bearer"


def test_a_valid_token_is_accepted_and_the_submission_waits_queued(api):
    r = submit(api, {"problem": "fake_quant_ste", "source": SOURCE})
    assert r.status_code == 202 and r.json() == {"id": r.json()["id"], "mode": "submit"}
    got = api.get(f"/api/v1/submissions/{r.json()['id']}", headers=AUTH)
    assert got.status_code == 200
    body = got.json()
    assert isinstance(body.pop("created"), float)
    assert body == {"id": r.json()["id"], "problem": "fake_quant_ste", "mode": "submit",
                    "status": "queued", "source": SOURCE, "result": None}


def test_running_the_examples_is_a_mode_of_its_own(api):
    r = submit(api, {"problem": "fake_quant_ste", "source": SOURCE, "mode": "examples"})
    assert r.status_code == 202 and r.json()["mode"] == "examples"
    assert api.get(f"/api/v1/submissions/{r.json()['id']}",
                   headers=AUTH).json()["mode"] == "examples"
    bad = submit(api, {"problem": "fake_quant_ste", "source": SOURCE, "mode": "hidden"})
    assert bad.status_code == 400 and '"examples"' in bad.json()["error"]


def test_a_token_sees_only_its_own_submissions(api):
    sub_id = submit(api, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
    theirs = api.get(f"/api/v1/submissions/{sub_id}", headers=OTHER_AUTH)
    assert theirs.status_code == 404 and sub_id in theirs.json()["error"]
    assert api.get("/api/v1/submissions/no-such-id", headers=AUTH).status_code == 404


# --- a token's list of submissions ----------------------------------------------------------

def listing(c, headers=AUTH, **query):
    r = c.get("/api/v1/submissions", headers=headers, params=query)
    assert r.status_code == 200, r.text
    return r.json()


def test_the_list_is_the_tokens_own_newest_first_and_paginated(tmp_path):
    with client(tmp_path) as c:
        mine = [submit(c, {"problem": "fake_quant_ste", "source": f"# {i}\n" + SOURCE}).json()["id"]
                for i in range(5)]
        mine.append(submit(c, {"problem": "sign_ste", "source": SOURCE, "mode": "examples"}
                           ).json()["id"])
        theirs = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}, OTHER_AUTH).json()["id"]
        everything = listing(c)
        assert everything["total"] == 6 and everything["offset"] == 0
        assert [s["id"] for s in everything["submissions"]] == mine[::-1]  # newest first
        first = everything["submissions"][0]
        assert set(first) == {"id", "problem", "mode", "status", "verdict", "score",
                              "max_score", "created", "finished"}
        assert (first["problem"], first["mode"], first["status"], first["verdict"]) == (
            "sign_ste", "examples", "queued", None)
        # pages of two: every submission once, in the same order
        pages = [listing(c, limit=2, offset=k) for k in (0, 2, 4, 6)]
        assert [s["id"] for p in pages for s in p["submissions"]] == mine[::-1]
        assert pages[-1]["submissions"] == [] and pages[0]["limit"] == 2
        # one problem's only
        fq = listing(c, problem="fake_quant_ste")
        assert fq["total"] == 5 and [s["id"] for s in fq["submissions"]] == mine[4::-1]
        # the other token sees its own, and never these
        other = listing(c, OTHER_AUTH)
        assert [s["id"] for s in other["submissions"]] == [theirs] and other["total"] == 1
        assert listing(c, OTHER_AUTH, problem="sign_ste")["total"] == 0


def test_a_listed_submission_has_its_verdict_and_score_once_graded(tmp_path):
    from judge.service import queue as q

    with client(tmp_path) as c:
        sub_id = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
        report = {"verdict": "WA", "score": 30, "max_score": 100, "cases": []}
        c.app.state.queue.put(q.result_key(sub_id, 1),
                              {"verdict": "WA", "report": json.dumps(report)})
        c.app.state.recorder.collect(c.app.state.store.get(sub_id))
        (row,) = listing(c)["submissions"]
        assert (row["status"], row["verdict"], row["score"], row["max_score"]) == (
            "done", "WA", 30, 100)
        assert row["finished"] >= row["created"]


@pytest.mark.parametrize("query", [{"limit": "0"}, {"limit": "101"}, {"limit": "x"},
                                   {"offset": "-1"}, {"limit": "²"}, {"page": "2"}])
def test_a_bad_page_is_400(api, query):
    r = api.get("/api/v1/submissions", headers=AUTH, params=query)
    assert r.status_code == 400 and r.json()["error"]


# --- refusals ------------------------------------------------------------------------------

def test_an_unknown_problem_is_404(api):
    r = submit(api, {"problem": "no_such_problem", "source": SOURCE})
    assert r.status_code == 404 and "no_such_problem" in r.json()["error"]
    assert api.get("/api/v1/problems/no_such_problem", headers=AUTH).status_code == 404
    assert api.get("/api/v1/problems/..%2Fproblems%2Ffake_quant_ste",
                   headers=AUTH).status_code == 404


def test_a_source_over_the_gate_limit_is_413_and_one_at_the_limit_is_taken(api):
    at_limit = "#" * (MAX_SOURCE_BYTES - 1) + "\n"
    assert submit(api, {"problem": "fake_quant_ste", "source": at_limit}).status_code == 202
    over = submit(api, {"problem": "fake_quant_ste", "source": at_limit + "x"})
    assert over.status_code == 413
    assert str(MAX_SOURCE_BYTES + 1) in over.json()["error"] and "128 KiB" in over.json()["error"]
    # counted in UTF-8 bytes, not characters
    wide = submit(api, {"problem": "fake_quant_ste", "source": "é" * (MAX_SOURCE_BYTES // 2 + 1)})
    assert wide.status_code == 413


def test_a_huge_body_is_413_before_it_is_parsed(api):
    r = api.post("/api/v1/submissions", headers={**AUTH, "Content-Type": "application/json"},
                 content=b'{"problem": "fake_quant_ste", "source": "' + b"x" * (2 << 20) + b'"}')
    assert r.status_code == 413 and "request body" in r.json()["error"]


@pytest.mark.parametrize("body,words", [
    (b"{not json", "not JSON"),
    (b"", "not JSON"),
    (b"\xff\xfe", "not JSON"),
    (b"[1, 2]", "JSON object"),
    (b"[" * 200_000, "JSON"),
    (b'{"problem": "fake_quant_ste"}', "JSON object"),
    (b'{"problem": "fake_quant_ste", "source": "x", "extra": 1}', "JSON object"),
    (b'{"problem": 3, "source": "x"}', "strings"),
    (b'{"problem": "fake_quant_ste", "source": ["x"]}', "strings"),
    (b'{"problem": "fake_quant_ste", "source": "a\\u0000b"}', "NUL"),
    (b'{"problem": "fake_quant_ste", "source": "\\ud800"}', "UTF-8"),
])
def test_a_malformed_body_is_400_with_a_message(api, body, words):
    r = api.post("/api/v1/submissions", headers={**AUTH, "Content-Type": "application/json"},
                 content=body)
    assert r.status_code == 400, r.text
    assert words in r.json()["error"]


def test_beyond_the_rate_limit_is_429_per_token(tmp_path):
    with client(tmp_path, rate=3) as c:
        for _ in range(3):
            assert submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).status_code == 202
        r = submit(c, {"problem": "fake_quant_ste", "source": SOURCE})
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "3 submissions a minute" in r.json()["error"]
        # another token is not starved by the first one
        assert submit(c, {"problem": "fake_quant_ste", "source": SOURCE},
                      OTHER_AUTH).status_code == 202


def test_beyond_the_pending_bound_is_429_and_the_others_still_submit(tmp_path):
    with client(tmp_path, max_pending=2) as c:
        for _ in range(2):
            assert submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).status_code == 202
        r = submit(c, {"problem": "fake_quant_ste", "source": SOURCE})
        assert r.status_code == 429 and "2 submissions waiting" in r.json()["error"]
        assert submit(c, {"problem": "fake_quant_ste", "source": SOURCE},
                      OTHER_AUTH).status_code == 202


def test_beyond_the_queue_bound_is_429_for_everyone(tmp_path):
    with client(tmp_path, max_queue=2) as c:
        submit(c, {"problem": "fake_quant_ste", "source": SOURCE})
        submit(c, {"problem": "fake_quant_ste", "source": SOURCE}, OTHER_AUTH)
        for headers in (AUTH, OTHER_AUTH):
            r = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}, headers)
            assert r.status_code == 429 and "queue is full" in r.json()["error"]


def test_the_rate_limiter_refills_with_time():
    now = [0.0]
    limiter = RateLimiter(60, clock=lambda: now[0])
    assert all(limiter.take("a") == 0 for _ in range(60))
    assert limiter.take("a") == pytest.approx(1.0)
    now[0] += 1.0
    assert limiter.take("a") == 0 and limiter.take("a") > 0
    assert limiter.take("b") == 0


# --- problems ------------------------------------------------------------------------------

def test_problems_lists_every_bundled_problem(api):
    r = api.get("/api/v1/problems", headers=AUTH)
    ids = [p["id"] for p in r.json()["problems"]]
    assert ids == sorted(p.stem for p in (ROOT / "problems").glob("*.yaml"))


def test_a_problem_is_what_judge_show_shows_and_no_hidden_case(api):
    problem = spec.load("fake_quant_ste", ROOT)
    got = api.get("/api/v1/problems/fake_quant_ste", headers=AUTH).json()
    assert got["text"] == show.render(problem)
    assert got["statement"] == problem.statement
    assert got["signature"] == "fake_quant_ste(" + ", ".join(
        p.name for p in problem.parameters) + ")"
    assert [e["name"] for e in got["examples"]] == [c.name for c in problem.examples]
    assert got["hidden"] == len(problem.hidden)
    assert got["limits"]["time_per_case_s"] == problem.limits["time_per_case_s"]
    assert [r["id"] for r in got["rules"]] == [r["id"] for r in problem.rules]
    first = got["examples"][0]["inputs"]["x"]
    assert first["dtype"] == "float32" and first["value"][0] == 0.3  # as the spec writes it
    text = json.dumps(got)
    for case in problem.hidden:
        assert json.dumps(case.name) not in text


# --- tokens --------------------------------------------------------------------------------

def test_the_first_start_writes_a_token_file_only_its_owner_reads(tmp_path, monkeypatch):
    monkeypatch.delenv(auth.ENV_VAR, raising=False)
    said = []
    tokens = auth.load(tmp_path, said.append)
    path = tmp_path / auth.FILE_NAME
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert len(tokens) == 1 and tokens[0] in path.read_text() and tokens[0] in said[0]
    assert auth.load(tmp_path, said.append) == tokens and len(said) == 1  # kept, not replaced


def test_the_environment_token_is_accepted_and_no_file_is_written(tmp_path, monkeypatch):
    monkeypatch.setenv(auth.ENV_VAR, TOKEN)
    assert auth.load(tmp_path) == [TOKEN]
    assert not (tmp_path / auth.FILE_NAME).exists()


def test_a_token_file_others_can_read_is_refused(tmp_path, monkeypatch):
    monkeypatch.delenv(auth.ENV_VAR, raising=False)
    path = tmp_path / auth.FILE_NAME
    path.write_text(TOKEN + "\n")
    path.chmod(0o644)
    with pytest.raises(JudgeError, match="open to other users"):
        auth.load(tmp_path)


def test_a_short_token_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv(auth.ENV_VAR, "short")
    with pytest.raises(JudgeError, match="at least 16 characters"):
        auth.load(tmp_path)


def test_a_token_added_to_the_file_is_accepted_without_a_restart(tmp_path, monkeypatch):
    monkeypatch.delenv(auth.ENV_VAR, raising=False)
    data = tmp_path / "data"
    data.mkdir()
    path = data / auth.FILE_NAME
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, f"{TOKEN}\n".encode())
    os.close(fd)

    def touch():  # a new modification time even within the clock's resolution
        st = os.stat(path)
        os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))

    app = create_app(ServiceSettings(data=data, recorder=False, root=ROOT))
    with TestClient(app) as c:
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 200
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 401
        with open(path, "a") as f:
            f.write(OTHER + "\n")
        touch()
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 200
        path.write_text(OTHER + "\n")  # the first token removed: refused at once
        touch()
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 401
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 200
        path.chmod(0o644)  # a file others can read grants nothing until it is fixed
        touch()
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 401
        path.chmod(0o600)
        touch()
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 200


def test_the_token_files_mode_alone_decides_without_a_restart(tmp_path, monkeypatch):
    """``chmod 644`` with nothing else changed refuses the file's tokens at the next request;
    an edit while it is 0644 and then ``chmod 600`` (as the log advises) accepts the new
    content, with no restart and no other change to the file."""
    monkeypatch.delenv(auth.ENV_VAR, raising=False)
    data = tmp_path / "data"
    data.mkdir()
    path = data / auth.FILE_NAME
    fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)
    os.write(fd, f"{TOKEN}\n".encode())
    os.close(fd)
    app = create_app(ServiceSettings(data=data, recorder=False, root=ROOT))
    with TestClient(app) as c:
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 200
        path.chmod(0o644)
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 401
        path.chmod(0o600)
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 200
        path.chmod(0o604)  # readable by others, whatever the group may do
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 401
        with open(path, "a") as f:
            f.write(OTHER + "\n")  # edited while refused: still nothing granted
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 401
        path.chmod(0o600)
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 200
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 200


def test_the_environment_token_stays_while_the_file_changes(tmp_path, monkeypatch):
    monkeypatch.setenv(auth.ENV_VAR, TOKEN)
    app = create_app(ServiceSettings(data=tmp_path / "data", recorder=False, root=ROOT))
    with TestClient(app) as c:
        assert not (tmp_path / "data" / auth.FILE_NAME).exists()
        assert c.get("/api/v1/problems", headers=AUTH).status_code == 200
        assert c.get("/api/v1/problems", headers=OTHER_AUTH).status_code == 401


# --- the log ---------------------------------------------------------------------------------

def test_a_line_per_request_and_per_graded_submission_and_one_at_shutdown(tmp_path, caplog):
    from judge.service import queue as q

    caplog.set_level(logging.INFO, logger="judge.service")
    with client(tmp_path) as c:
        sub_id = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
        c.get("/api/v1/problems/nothing", headers={"Authorization": "Bearer " + "x" * 20})
        c.app.state.queue.put(q.result_key(sub_id, 1), {"verdict": "AC", "report": json.dumps(
            {"verdict": "AC"})})
        c.app.state.recorder.collect(c.app.state.store.get(sub_id))
    lines = [r.getMessage() for r in caplog.records if r.name == "judge.service"]
    assert any(re.fullmatch(r"POST /api/v1/submissions 202 \d+ ms", m) for m in lines), lines
    assert any(re.fullmatch(r"GET /api/v1/problems/nothing 401 \d+ ms", m) for m in lines)
    assert any(m.startswith(f"submission {sub_id}: problem fake_quant_ste, submit, queued")
               for m in lines)
    assert any(re.fullmatch(rf"submission {sub_id}: problem fake_quant_ste, submit, verdict AC, "
                            r"[\d.]+ s after it was sent", m) for m in lines), lines
    assert lines[-1].startswith("shutting down")
    assert not any("x" * 20 in m or TOKEN in m for m in lines)  # never a token


# --- the page ------------------------------------------------------------------------------

def test_the_page_is_served_at_the_root_without_a_token(api):
    r = api.get("/")
    if not (STATIC / "index.html").is_file():
        assert r.status_code == 404
        return
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
    assert r.text == (STATIC / "index.html").read_text()


@pytest.mark.parametrize("path", ["/", "/static/app.js", "/api/v1/problems", "/api/v1/nothing"])
def test_every_response_forbids_foreign_scripts_frames_and_type_guessing(api, path):
    response = api.get(path, headers=AUTH)
    policy = response.headers["content-security-policy"]
    assert "default-src 'self'" in policy and "frame-ancestors 'none'" in policy
    assert response.headers["x-content-type-options"] == "nosniff"


def test_every_file_the_page_loads_is_served_from_the_package(api):
    """The page works offline: each script, style sheet and icon it names is one of the
    package's own files (the vendored libraries included), served under /static/."""
    page = (STATIC / "index.html").read_text()
    paths = re.findall(r'(?:src|href)="(/static/[^"]+)"', page)
    assert len(paths) >= 8 and not re.search(r'(?:src|href)="(?:https?:)?//', page)
    for path in paths:
        assert api.get(path).status_code == 200, path
    for library in (STATIC / "vendor").iterdir():
        if library.is_dir():  # each library with its license
            assert any(p.name.startswith("LICENSE") for p in library.iterdir()), library
    # KaTeX's fonts, named by its style sheet (the WOFF2 ones: what browsers load)
    css = (STATIC / "vendor/katex/katex.min.css").read_text()
    for font in set(re.findall(r"url\((fonts/[^)]+\.woff2)\)", css)):
        assert api.get(f"/static/vendor/katex/{font}").status_code == 200, font


def test_a_database_from_before_the_modes_is_read_and_listed(tmp_path):
    """A service upgraded on the same --data: its submissions were all of every case."""
    import sqlite3

    from judge.service.store import Store

    path = tmp_path / "service.db"
    old = sqlite3.connect(path)
    old.executescript("""
        create table submissions (id text primary key, owner text not null, problem text not null,
            source text not null, status text not null, attempt integer not null default 1,
            lease_until real, created real not null, finished real, verdict text, result text);
        insert into submissions (id, owner, problem, source, status, created, finished, verdict,
            result) values ('old', 'me', 'fake_quant_ste', 'x', 'done', 1.0, 2.0, 'AC',
            '{"verdict": "AC", "score": 100, "max_score": 100}');""")
    old.commit()
    old.close()
    store = Store(path)
    assert store.get("old").mode == "submit"
    total, (row,) = store.list("me")
    assert total == 1 and (row.mode, row.verdict, row.score) == ("submit", "AC", 100)
    new = store.add("me", "fake_quant_ste", "y", "examples")
    assert [r.id for r in store.list("me")[1]] == [new, "old"]
    assert store.get("old").inputs is None  # the column of the runs on an input, added
    run = store.add("me", "fake_quant_ste", "y", "input", '{"example": 0, "inputs": {}}')
    assert store.get(run).inputs == '{"example": 0, "inputs": {}}'


# --- a student's own state: solved or attempted, and the write-up after a solve ---------------

def _record(c, sub_id, verdict):
    from judge.service import queue as q

    c.app.state.queue.put(q.result_key(sub_id, 1),
                          {"verdict": verdict, "report": json.dumps({"verdict": verdict})})
    c.app.state.recorder.collect(c.app.state.store.get(sub_id))


def test_progress_is_the_tokens_own_and_only_an_accepted_submission_solves(tmp_path):
    with client(tmp_path) as c:
        assert c.get("/api/v1/progress", headers=AUTH).json() == {"problems": {}}
        run = submit(c, {"problem": "sign_ste", "source": SOURCE, "mode": "examples"}).json()["id"]
        _record(c, run, "AC")  # a run of the examples only: attempted, not solved
        wrong = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
        _record(c, wrong, "WA")
        assert c.get("/api/v1/progress", headers=AUTH).json() == {
            "problems": {"sign_ste": "attempted", "fake_quant_ste": "attempted"}}
        right = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
        _record(c, right, "AC")
        later = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
        _record(c, later, "WA")  # solved stays solved
        assert c.get("/api/v1/progress", headers=AUTH).json()["problems"]["fake_quant_ste"] == "solved"
        assert c.get("/api/v1/progress", headers=OTHER_AUTH).json() == {"problems": {}}
        assert c.get("/api/v1/progress").status_code == 401


def test_the_write_up_is_given_only_after_an_accepted_submission(tmp_path):
    path = "/api/v1/problems/fake_quant_ste/editorial"
    with client(tmp_path) as c:
        r = c.get(path, headers=AUTH)
        assert r.status_code == 403 and "accepted" in r.json()["error"]
        assert "editorial" not in c.get("/api/v1/problems/fake_quant_ste", headers=AUTH).json()
        run = submit(c, {"problem": "fake_quant_ste", "source": SOURCE, "mode": "examples"}).json()["id"]
        _record(c, run, "AC")
        assert c.get(path, headers=AUTH).status_code == 403  # the examples are not a solve
        sub = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
        _record(c, sub, "AC")
        r = c.get(path, headers=AUTH)
        assert r.status_code == 200
        assert r.json() == {"problem": "fake_quant_ste",
                            "editorial": spec.load("fake_quant_ste").editorial}
        assert c.get(path, headers=OTHER_AUTH).status_code == 403  # another student's solve
        assert c.get(path).status_code == 401
        assert c.get("/api/v1/problems/nope/editorial", headers=AUTH).status_code == 404


# --- a run on the student's own input --------------------------------------------------------

SIGN = (ROOT / "reference/sign_ste.py").read_text()


def run_on(c, body, headers=AUTH):
    return c.post("/api/v1/runs", json=body, headers=headers)


def test_a_run_on_an_input_is_queued_with_its_inputs(tmp_path):
    from judge.service import queue as q

    with client(tmp_path) as c:
        r = run_on(c, {"problem": "sign_ste", "source": SIGN, "example": 1,
                       "inputs": {"x": {"dtype": "bfloat16", "data": [1.5, -2.0]}}})
        assert r.status_code == 202 and r.json()["mode"] == "input"
        sub_id = r.json()["id"]
        row = c.app.state.store.get(sub_id)
        assert row.mode == "input" and json.loads(row.inputs) == {
            "example": 1, "inputs": {"x": {"dtype": "bfloat16", "data": [1.5, -2.0]}}}
        (task,) = c.app.state.queue.tasks.pending()
        assert list(task.args) == [sub_id, 1, "sign_ste", SIGN, "input", row.inputs]
        listed = c.get("/api/v1/submissions", headers=AUTH).json()["submissions"]
        assert [(s["id"], s["mode"]) for s in listed] == [(sub_id, "input")]
        got = c.get(f"/api/v1/submissions/{sub_id}", headers=AUTH).json()
        assert got["mode"] == "input" and got["status"] == "queued"
        assert run_on(c, {"problem": "sign_ste", "source": SIGN, "example": 0,
                          "inputs": {"x": [1.0]}}, OTHER_AUTH).status_code == 202
        assert q.result_key(sub_id, 1)  # followed as any submission


@pytest.mark.parametrize("body,status,words", [
    ({"problem": "sign_ste", "source": SIGN, "example": 0, "inputs": {"x": [1.0] * 65}}, 400,
     "x: has 65 entries, at most 64 allowed"),
    ({"problem": "sign_ste", "source": SIGN, "example": 0, "inputs": {"x": [float("1e39")]}}, 400,
     "x"),
    ({"problem": "sign_ste", "source": SIGN, "example": 0, "inputs": {"y": [1.0]}}, 400,
     "missing x; unknown y"),
    ({"problem": "sign_ste", "source": SIGN, "example": 3, "inputs": {"x": [1.0]}}, 400,
     '"example" must be the number of one of the problem\'s examples, from 0 to 2'),
    ({"problem": "sign_ste", "source": SIGN, "example": True, "inputs": {"x": [1.0]}}, 400,
     '"example"'),
    ({"problem": "fake_quant_ste", "source": SOURCE, "example": 0,
      "inputs": {"x": [1.0], "scale": 0.5, "qmin": 3, "qmax": 1, "cotangent": [1.0]}}, 400,
     "qmin"),
    ({"problem": "sign_ste", "source": SIGN, "example": 0}, 400, "four keys"),
    ({"problem": "nope", "source": SIGN, "example": 0, "inputs": {}}, 404, "no problem"),
    ({"problem": "sign_ste", "source": "x" * (MAX_SOURCE_BYTES + 1), "example": 0,
      "inputs": {"x": [1.0]}}, 413, "bytes"),
    ({"problem": "sign_ste", "source": "a\x00b", "example": 0, "inputs": {"x": [1.0]}}, 400,
     "NUL"),
])
def test_an_input_the_problem_does_not_admit_is_refused_before_it_is_queued(api, body, status, words):
    before = len(api.app.state.queue.tasks.pending())
    r = run_on(api, body)
    assert r.status_code == status, r.text
    assert words in r.json()["error"]
    assert len(api.app.state.queue.tasks.pending()) == before


def test_an_input_nested_too_deeply_is_refused(api):
    tree = {"w": [1.0]}
    for _ in range(900):
        tree = {"a": tree}
    body = {"problem": "adamw_step", "source": SIGN, "example": 0,
            "inputs": {"params": tree, "grads": tree, "m": tree, "v": tree, "count": 0,
                       "lr": 0.1, "b1": 0.9, "b2": 0.999, "eps": 1e-8, "weight_decay": 0.0}}
    r = run_on(api, body)
    assert r.status_code == 400, r.text


def test_a_run_on_an_input_needs_a_token(api):
    assert run_on(api, {"problem": "sign_ste", "source": SIGN, "example": 0,
                        "inputs": {"x": [1.0]}}, {}).status_code == 401


def test_a_grader_refuses_inputs_from_the_queue_that_the_problem_does_not_admit(tmp_path):
    """The queue is not trusted: a task's inputs are checked again, and a bad one is IE,
    with nothing run."""
    from judge.service.grader import Grader

    grader = Grader(None, tmp_path, sandbox="none")
    for inputs in (None, "[]", json.dumps({"example": 0, "inputs": {"x": [1.0] * 65}})):
        verdict, report = grader.grade_input("sign_ste", SIGN, inputs)
        assert verdict == "IE" and "not graded" in json.loads(report)["message"]


# --- health: what the page and a monitor read -------------------------------------------------

def test_health_needs_no_token_and_says_when_grading_is_unsandboxed(tmp_path):
    with client(tmp_path / "a") as c:
        assert c.get("/api/v1/health").json() == {"status": "ok", "sandbox": "bwrap"}
        # a grader that says it grades without the sandbox (another machine's --sandbox none)
        sub_id = submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
        c.app.state.queue.notify({"event": "start", "id": sub_id, "attempt": 1,
                                  "grader": "elsewhere:1", "sandbox": "none"})
        c.app.state.recorder.drain_events()
        assert c.get("/api/v1/health").json()["sandbox"] == "none"
    app = create_app(ServiceSettings(data=tmp_path / "b" / "data", tokens=(TOKEN,),
                                     recorder=False, root=ROOT, sandbox="none"))
    with TestClient(app) as c:
        assert c.get("/api/v1/health").json() == {"status": "ok", "sandbox": "none"}
        page = c.get("/").text
        assert 'id="unsandboxed"' in page and "--sandbox none" in page


# --- fairness: owners take turns ------------------------------------------------------------

def _next_task(queue):
    task = queue.tasks.dequeue()
    return None if task is None else task.args[0]


def test_a_burst_from_one_token_delays_anothers_single_submission_by_a_grading_or_two(tmp_path):
    """A sends 40 at once; B then sends one: the graders take B's second or third, not 41st.
    A's own stay in the order sent. Later, with A's burst half graded, B's next one again goes
    ahead of A's remaining twenty."""
    with client(tmp_path, rate=100) as c:
        store, queue = c.app.state.store, c.app.state.queue
        burst = [submit(c, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
                 for _ in range(40)]
        single = submit(c, {"problem": "fake_quant_ste", "source": SOURCE},
                        OTHER_AUTH).json()["id"]
        order = []
        for _ in range(3):  # three graders take a task each, and start it
            order.append(_next_task(queue))
            store.start(order[-1], 1, 60)
        assert single in order, order
        for sub_id in [s for s in burst if s in order]:
            store.record(sub_id, 1, "AC", "{}")
        while len(order) < 22:  # half of A's burst graded
            order.append(_next_task(queue))
            store.start(order[-1], 1, 60)
            store.record(order[-1], 1, "AC", "{}")
        assert [s for s in order if s != single] == burst[:21]  # A's in the order sent
        late = submit(c, {"problem": "fake_quant_ste", "source": SOURCE},
                      OTHER_AUTH).json()["id"]
        following = [_next_task(queue) for _ in range(2)]
        assert late in following, (following, late)
        rest = [_next_task(queue) for _ in range(19)]
        assert rest == [s for s in burst[21:] if s not in following] + [None]


def test_reads_count_against_a_tokens_request_rate_and_only_its_own(tmp_path):
    with client(tmp_path, request_rate=5) as c:
        for _ in range(5):
            assert c.get("/api/v1/submissions", headers=AUTH).status_code == 200
        r = c.get("/api/v1/problems", headers=AUTH)
        assert r.status_code == 429 and int(r.headers["retry-after"]) >= 1
        assert "5 requests a minute" in r.json()["error"]
        assert c.get("/api/v1/submissions", headers=OTHER_AUTH).status_code == 200
        assert c.get("/api/v1/health").status_code == 200  # no token, no limit


def test_only_the_allowed_host_names_are_answered(tmp_path):
    from judge.service.connections import default_hosts, host_allowed

    app = create_app(ServiceSettings(data=tmp_path / "data", tokens=(TOKEN,), recorder=False,
                                     root=ROOT, allowed_hosts=default_hosts("127.0.0.1")))
    with TestClient(app) as c:
        for host in ("localhost:8765", "127.0.0.1", "[::1]:8765"):
            assert c.get("/api/v1/problems", headers={**AUTH, "Host": host}).status_code == 200
        r = c.get("/api/v1/problems", headers={**AUTH, "Host": "attacker.example:8765"})
        assert r.status_code == 400 and "--allowed-host" in r.json()["error"]
        assert c.get("/", headers={"Host": "attacker.example"}).status_code == 400
    assert default_hosts("0.0.0.0") == () and host_allowed("anything", ())
    assert host_allowed("a.judge.example", ("*.judge.example",))
    assert not host_allowed("judge.example.evil", ("*.judge.example",))
    assert not host_allowed(None, ("localhost",))
