"""The HTTP API (FastAPI): ``create_app(settings)``.

Every route under ``/api/v1`` needs ``Authorization: Bearer <token>`` (401 otherwise):
- ``POST /api/v1/submissions`` ``{"problem", "source"[, "mode"]}``: 202 ``{"id", "mode"}``;
  ``mode`` is ``submit`` (the default: every case, scored) or ``examples`` (a run of the public
  examples only, as ``judge grade --examples-only``); 400 for a body that is not that JSON
  object, 404 for an unknown problem, 413 for a source over the source gate's size limit
  (``judge.gate.MAX_SOURCE_BYTES``), 429 beyond the token's rate limit or the queue bounds
  (``judge.service.limits``);
- every route with a token: 429 beyond the token's requests a minute (reads too), and every
  route 400 for a Host header not in ``allowed_hosts`` (``judge.service.connections``);
- ``GET /api/v1/submissions[?problem=ID&limit=N&offset=K]``: the token's own submissions,
  newest first, ``{"submissions": [{"id", "problem", "mode", "status", "verdict", "score",
  "max_score", "created", "finished"}], "total", "limit", "offset"}`` (``limit`` 1 to
  ``MAX_PAGE``, default ``PAGE``); another token's never appear;
- ``GET /api/v1/submissions/{id}``: ``{"id", "problem", "mode", "status", "created", "source",
  "result"}``, ``result`` being the ``judge grade --format json`` report once done (hidden cases
  masked by that report); 404 for an id the token did not submit;
- with an instructor token (``judge service tokens add --role instructor``), the list holds every
  user's submissions, each with ``user`` (its token's label), any submission can be read, and
  ``GET /api/v1/problems/{id}/class.csv`` is the class's CSV for that problem, ``judge batch``'s
  columns with a row per user (``judge.service.classlist``); a student token gets 403 there;
- ``GET /api/v1/problems`` and ``GET /api/v1/problems/{id}`` (``judge.service.problems``);
- what a student sees of their own work (``student_routes``): ``GET /api/v1/progress``,
  ``{"problems": {ID: "solved" | "attempted"}}`` for each problem the token sent something to
  (solved: a submission of every case was accepted; a run of the examples only attempts), and
  ``GET /api/v1/problems/{id}/editorial``, ``{"problem", "editorial"}`` (the author's write-up,
  Markdown) once the token solved it: 403 before, 404 for an unknown problem or one without;
  and ``POST /api/v1/runs`` ``{"problem", "source", "example": N, "inputs": {NAME: VALUE}}``,
  a run on the student's own input in place of example N (``judge.service.input_run``): 202
  ``{"id", "mode": "input"}``, followed as any submission (its report also has ``reference``,
  the inputs and the reference's output); 400 for inputs the problem does not admit, naming the
  parameter and the rule, and the other refusals of a submission.
- ``GET /api/v1/health``, the one route without a token: ``{"status", "sandbox"}``, ``status``
  being ``unavailable`` while the database or the queue fails, ``sandbox`` being ``none`` when
  the service was told to grade without it or a grader said it does.
``GET /`` is the web page (``static/index.html``) and ``/static/...`` its files.

Every error is ``{"error": MESSAGE}``: while the database or the queue cannot be reached (a
full disk, Redis down), 503 with ``Retry-After`` (``judge.service.outage``), the real error in the
log once and then at a backed-off rate; any other failure 500. The source is stored and queued; nothing here parses,
imports or runs it. Each request is logged as one line (method, path, status, milliseconds;
never a header), as is the service's shutdown.
"""

from __future__ import annotations

import json
import logging
import threading
import time
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException as StarletteHTTPException

from judge.errors import JudgeError
from judge.gate import MAX_SOURCE_BYTES
from judge.service import auth, classlist, input_run
from judge.service.connections import host_allowed
from judge.service.limits import Limits, RateLimiter
from judge.service.outage import RETRY_AFTER_S, Outage, is_outage
from judge.service.problems import catalogue as load_catalogue
from judge.service.queue import open_queue
from judge.service.recorder import LEASE_S, Recorder
from judge.service.store import MODES, Store

log = logging.getLogger("judge.service")

STATIC = Path(__file__).parent / "static"
#: Sent with every response: the page loads only its own files, no frame may hold it, and a
#: browser never guesses a file's type.
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; frame-ancestors 'none'; base-uri 'none'; "
                               "form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
#: The largest request body read: the largest source, escaped in JSON, plus room for the rest.
MAX_BODY_BYTES = 6 * MAX_SOURCE_BYTES + 4096
#: Submissions listed per page by default, and at most.
PAGE, MAX_PAGE = 20, 100


@dataclass(frozen=True)
class ServiceSettings:
    data: Path                          # the database, the SQLite queue and the token file
    queue: str | None = None            # a Redis URL; None: SQLite in ``data``
    tokens: tuple[str, ...] = ()        # empty: $JUDGE_SERVICE_TOKEN and DATA/tokens, re-read
                                        # whenever the file changes (``auth.Tokens.watching``)
    limits: Limits = field(default_factory=Limits)
    lease_s: float = LEASE_S
    recorder: bool = True               # record results and re-enqueue lost work (the API's job)
    root: Path | None = None            # the folder holding problems/ (default: found as usual)
    sandbox: str = "bwrap"              # the graders' sandbox, as ``judge service`` resolved it
    allowed_hosts: tuple[str, ...] = ()  # Host names answered (``connections``); empty: any


class ApiError(Exception):
    def __init__(self, status: int, message: str, headers: dict | None = None):
        super().__init__(message)
        self.status, self.message, self.headers = status, message, headers


def _error(status: int, message: str, headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status, headers=headers)


def create_app(settings: ServiceSettings) -> FastAPI:
    data = Path(settings.data)
    data.mkdir(parents=True, exist_ok=True)
    if settings.tokens:
        tokens = auth.Tokens(list(settings.tokens))
    else:
        auth.load(data)  # refuses a bad file now; writes the first token if there is none
        tokens = auth.Tokens.watching(data)
    store = Store(data / "service.db")
    queue = open_queue(settings.queue, data)
    catalogue = load_catalogue(settings.root)
    rate = RateLimiter(settings.limits.rate)
    requests = RateLimiter(settings.limits.request_rate)
    recorder = Recorder(store, queue, settings.lease_s)

    @asynccontextmanager
    async def lifespan(app):
        if settings.recorder:
            recorder.start()
        try:
            yield
        finally:
            log.info("shutting down: no new requests; submissions not yet graded stay queued "
                     "in %s", data)
            recorder.stop()

    app = FastAPI(title="judge service", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url=None)
    app.state.store, app.state.queue, app.state.recorder = store, queue, recorder

    storage = Outage("the service's database or queue", log)

    @app.middleware("http")
    async def security_headers(request: Request, call_next):
        started = time.monotonic()
        if not host_allowed(request.headers.get("host"), settings.allowed_hosts):
            response = _error(400, "this service does not answer to that Host name (its "
                                   "operator lists the names it does with --allowed-host)")
            response.headers.update(SECURITY_HEADERS)
            log.info("%s %s 400 (Host not allowed)", request.method, request.url.path)
            return response
        try:
            response = await call_next(request)
        except Exception as exc:  # noqa: BLE001 - answered as JSON, never a reset connection
            if is_outage(exc):
                storage.failed(exc, f"answering {request.method} {request.url.path}")
                response = _error(503, "the service cannot reach its storage just now; nothing "
                                       "was lost, try again shortly",
                                  {"Retry-After": str(RETRY_AFTER_S)})
            else:
                log.exception("%s %s failed", request.method, request.url.path)
                response = _error(500, "internal error; the service's log has the details")
        else:
            if response.status_code < 500:
                storage.ok()
        response.headers.update(SECURITY_HEADERS)
        log.info("%s %s %d %.0f ms", request.method, request.url.path, response.status_code,
                 (time.monotonic() - started) * 1000)
        return response

    @app.exception_handler(ApiError)
    async def api_error(request, exc: ApiError):
        return _error(exc.status, exc.message, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def bad_request(request, exc):
        return _error(400, "the request is malformed: " + "; ".join(
            str(e.get("msg", e)) for e in exc.errors()))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request, exc):
        return _error(exc.status_code, str(exc.detail))

    def caller(request: Request) -> str:
        return identified(request).owner

    def identified(request: Request) -> auth.Entry:
        who = tokens.identify(request.headers.get("authorization"))
        if who is None:
            raise ApiError(401, "a valid token is needed: send `Authorization: Bearer TOKEN`",
                           {"WWW-Authenticate": "Bearer"})
        wait = requests.take(who)
        if wait:
            raise ApiError(429, f"this token may make {settings.limits.request_rate} requests a "
                                f"minute; wait {wait:.1f} s",
                           {"Retry-After": str(max(1, round(wait)))})
        return who

    async def body_json(request: Request):
        length = request.headers.get("content-length")
        if length is not None and not length.isdigit():
            raise ApiError(400, f"the Content-Length {length!r} is not a number of bytes")
        if length is not None and int(length) > MAX_BODY_BYTES:
            raise ApiError(413, f"the request body is larger than {MAX_BODY_BYTES} bytes; a "
                                f"source may have up to {MAX_SOURCE_BYTES} bytes")
        body = bytearray()
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_BODY_BYTES:
                raise ApiError(413, f"the request body is larger than {MAX_BODY_BYTES} bytes; a "
                                    f"source may have up to {MAX_SOURCE_BYTES} bytes")
        try:
            return json.loads(bytes(body))
        except (ValueError, UnicodeDecodeError) as exc:
            raise ApiError(400, f"the body is not JSON: {exc}") from None
        except RecursionError:
            raise ApiError(400, "the body is not JSON the service reads: nested too deeply") from None

    @app.post("/api/v1/submissions", status_code=202)
    async def submit(request: Request):
        who = caller(request)
        body = await body_json(request)
        if not isinstance(body, dict) or not ({"problem", "source"} <= set(body) <=
                                              {"problem", "source", "mode"}):
            raise ApiError(400, 'the body must be a JSON object {"problem": ID, "source": TEXT} '
                                'with these two keys only, and optionally "mode": "submit" or '
                                '"examples"')
        problem, source = body["problem"], body["source"]
        mode = body.get("mode", "submit")
        if not isinstance(problem, str) or not isinstance(source, str):
            raise ApiError(400, '"problem" and "source" must both be strings')
        if mode not in MODES:
            raise ApiError(400, '"mode" must be "submit" (every case, scored) or "examples" '
                                '(the public examples only)')
        if catalogue.get(problem) is None:
            raise ApiError(404, f"no problem {problem!r}; GET /api/v1/problems lists them")
        size = len(source.encode("utf-8", "surrogatepass"))
        if size > MAX_SOURCE_BYTES:
            raise ApiError(413, f"the source has {size} bytes; the judge grades sources of up to "
                                f"{MAX_SOURCE_BYTES} bytes ({MAX_SOURCE_BYTES // 1024} KiB)")
        if "\x00" in source or _has_surrogates(source):
            raise ApiError(400, "the source must be UTF-8 text without NUL characters")
        return await run_in_threadpool(accept, who, problem, source, mode)  # database, queue

    admitting = threading.Lock()  # the bounds are checked and the row added as one step

    def accept(who: str, problem: str, source: str, mode: str, inputs: str | None = None) -> dict:
        with admitting:
            sub_id = admit(who, problem, source, mode, inputs)
        try:  # stored: whatever fails now, the answer is 202 and the recorder enqueues it
            turn = store.get(sub_id).turn
            log.info("submission %s: problem %s, %s, queued (turn %d)", sub_id, problem, mode,
                     turn)
            queue.enqueue(sub_id, 1, problem, source, mode, turn, inputs)
        except Exception as exc:  # noqa: BLE001 - stored, so the recorder enqueues it when it can
            if is_outage(exc):
                storage.failed(exc, f"enqueueing {sub_id} (stored: the next sweep enqueues it)")
            else:
                log.exception("enqueueing %s failed; the next sweep enqueues it", sub_id)
        return {"id": sub_id, "mode": mode}

    def admit(who: str, problem: str, source: str, mode: str, inputs: str | None = None) -> str:
        limits = settings.limits
        if store.pending(who) >= limits.max_pending:
            raise ApiError(429, f"this token has {limits.max_pending} submissions waiting or "
                                f"being graded, its most; submit again once some are done",
                           {"Retry-After": "5"})
        if store.pending() >= limits.max_queue:
            raise ApiError(429, f"the queue is full ({limits.max_queue} submissions); try again "
                                f"later", {"Retry-After": "10"})
        wait = rate.take(who)
        if wait:
            raise ApiError(429, f"this token may send {limits.rate} submissions a minute; "
                                f"wait {wait:.1f} s", {"Retry-After": str(max(1, round(wait)))})
        return store.add(who, problem, source, mode, inputs)

    @app.get("/api/v1/submissions")
    def submissions(request: Request):
        who = identified(request)
        everyone = who.role == "instructor"
        query = request.query_params
        unknown = set(query) - {"problem", "limit", "offset"}
        if unknown:
            raise ApiError(400, f"unknown query parameter(s) {', '.join(sorted(unknown))}; "
                                "this list takes problem, limit and offset")
        limit = _count(query.get("limit"), "limit", PAGE, 1, MAX_PAGE)
        offset = _count(query.get("offset"), "offset", 0, 0, None)
        total, rows = store.list(None if everyone else who.owner, query.get("problem"), limit,
                                 offset)
        return {"submissions": [{"id": r.id, "problem": r.problem, "mode": r.mode,
                                 "status": r.status, "verdict": r.verdict, "score": r.score,
                                 "max_score": r.max_score, "created": r.created,
                                 "finished": r.finished,
                                 **({"user": tokens.label(r.owner)} if everyone else {})}
                                for r in rows],
                "total": total, "limit": limit, "offset": offset}

    @app.get("/api/v1/submissions/{sub_id}")
    def submission(sub_id: str, request: Request):
        who = identified(request)
        row = store.get(sub_id)
        if row is None or (row.owner != who.owner and who.role != "instructor"):
            raise ApiError(404, f"no submission {sub_id} of this token")
        return {"id": row.id, "problem": row.problem, "mode": row.mode, "status": row.status,
                "created": row.created, "source": row.source,
                "result": json.loads(row.result) if row.status == "done" else None}

    @app.get("/api/v1/problems")
    def problems(request: Request):
        caller(request)
        return {"problems": catalogue.list()}

    @app.get("/api/v1/problems/{problem_id}")
    def problem(problem_id: str, request: Request):
        caller(request)
        found = catalogue.get(problem_id)
        if found is None:
            raise ApiError(404, f"no problem {problem_id!r}; GET /api/v1/problems lists them")
        return found

    @app.get("/api/v1/problems/{problem_id}/class.csv")
    def class_csv(problem_id: str, request: Request):
        if identified(request).role != "instructor":
            raise ApiError(403, "the class's CSV is for an instructor token "
                                "(`judge service tokens add --role instructor`)")
        found = catalogue.problems.get(problem_id)
        if found is None:
            raise ApiError(404, f"no problem {problem_id!r}; GET /api/v1/problems lists them")
        text = classlist.csv_text(store.latest(problem_id), found, tokens.label)
        return Response(text, media_type="text/csv; charset=utf-8", headers={
            "Content-Disposition": f'attachment; filename="class-{problem_id}.csv"'})

    student_routes(app, store, catalogue, caller, body_json, accept)

    @app.get("/api/v1/health")
    def health():
        bare = settings.sandbox != "bwrap" or bool(recorder.unsandboxed)
        storage.ok()  # over, if nothing failed for a while
        down = storage.down or recorder.outage.down
        return {"status": "unavailable" if down else "ok", "sandbox": "none" if bare else "bwrap"}

    @app.get("/", include_in_schema=False)
    def index():
        page = STATIC / "index.html"
        if not page.is_file():
            raise ApiError(404, "this service has no web page; the API is under /api/v1")
        return FileResponse(page, media_type="text/html")

    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def student_routes(app: FastAPI, store: Store, catalogue, caller, body_json, accept) -> None:
    """The routes of a student's own work: which problems they solved, a solved problem's
    write-up (never before it is solved), and a run on their own input."""

    @app.post("/api/v1/runs", status_code=202)
    async def run_on_input(request: Request):
        who = caller(request)
        body = await body_json(request)
        if not isinstance(body, dict) or set(body) != {"problem", "source", "example", "inputs"}:
            raise ApiError(400, 'the body must be a JSON object {"problem": ID, "source": TEXT, '
                                '"example": N, "inputs": {PARAMETER: VALUE, ...}} with these '
                                'four keys only')
        problem, source = body["problem"], body["source"]
        if not isinstance(problem, str) or not isinstance(source, str):
            raise ApiError(400, '"problem" and "source" must both be strings')
        if catalogue.get(problem) is None:
            raise ApiError(404, f"no problem {problem!r}; GET /api/v1/problems lists them")
        wrong = _source_error(source)
        if wrong:
            raise ApiError(*wrong)
        try:
            input_run.case(catalogue.problems[problem], body["example"], body["inputs"])
        except JudgeError as exc:
            raise ApiError(400, f"this input is not one the problem admits: {exc}") from None
        inputs = json.dumps({"example": body["example"], "inputs": body["inputs"]})
        return await run_in_threadpool(accept, who, problem, source, "input", inputs)

    @app.get("/api/v1/progress")
    def progress(request: Request):
        who = caller(request)
        return {"problems": store.progress(who)}

    @app.get("/api/v1/problems/{problem_id}/editorial")
    def editorial(problem_id: str, request: Request):
        who = caller(request)
        if catalogue.get(problem_id) is None:
            raise ApiError(404, f"no problem {problem_id!r}; GET /api/v1/problems lists them")
        text = catalogue.editorial(problem_id)
        if not text:
            raise ApiError(404, f"problem {problem_id!r} has no write-up")
        if store.progress(who).get(problem_id) != "solved":
            raise ApiError(403, "the write-up is shown once a submission of yours to this "
                                "problem is accepted")
        return {"problem": problem_id, "editorial": text}


def _source_error(source: str) -> tuple[int, str] | None:
    """(status, message) for a source the judge does not take, as POST /api/v1/submissions
    refuses it; None for a good one."""
    size = len(source.encode("utf-8", "surrogatepass"))
    if size > MAX_SOURCE_BYTES:
        return 413, (f"the source has {size} bytes; the judge grades sources of up to "
                     f"{MAX_SOURCE_BYTES} bytes ({MAX_SOURCE_BYTES // 1024} KiB)")
    if "\x00" in source or _has_surrogates(source):
        return 400, "the source must be UTF-8 text without NUL characters"
    return None


def _count(text: str | None, name: str, default: int, low: int, high: int | None) -> int:
    """A query parameter that is a whole number from ``low`` to ``high``; 400 otherwise."""
    if text is None:
        return default
    if not (text.isascii() and text.isdigit() and len(text) < 10) or int(text) < low or (high is not None and int(text) > high):
        bound = f"from {low} to {high}" if high is not None else f"{low} or more"
        raise ApiError(400, f"{name} must be a whole number {bound}, got {text!r}")
    return int(text)


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
