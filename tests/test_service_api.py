"""The service's HTTP API in process (FastAPI's test client), without graders: authentication,
the status codes of every refusal, the per-token limits, problems as JSON, and who sees which
submission. Grading through the API is in tests/test_service_e2e.py."""

import json
import os
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
    ("GET", "/api/v1/problems"), ("GET", "/api/v1/problems/fake_quant_ste"),
])
def test_every_call_without_a_valid_token_is_401(api, headers, method, path):
    body = {"problem": "fake_quant_ste", "source": SOURCE} if method == "POST" else None
    r = api.request(method, path, headers=headers, json=body)
    assert r.status_code == 401, r.text
    assert "Bearer" in r.json()["error"] and r.headers["www-authenticate"] == "Bearer"


def test_a_valid_token_is_accepted_and_the_submission_waits_queued(api):
    r = submit(api, {"problem": "fake_quant_ste", "source": SOURCE})
    assert r.status_code == 202 and set(r.json()) == {"id"}
    got = api.get(f"/api/v1/submissions/{r.json()['id']}", headers=AUTH)
    assert got.status_code == 200
    assert got.json() == {"id": r.json()["id"], "status": "queued", "result": None}


def test_a_token_sees_only_its_own_submissions(api):
    sub_id = submit(api, {"problem": "fake_quant_ste", "source": SOURCE}).json()["id"]
    theirs = api.get(f"/api/v1/submissions/{sub_id}", headers=OTHER_AUTH)
    assert theirs.status_code == 404 and sub_id in theirs.json()["error"]
    assert api.get("/api/v1/submissions/no-such-id", headers=AUTH).status_code == 404


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
