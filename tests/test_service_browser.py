"""The grading page at `/`, driven in a real headless browser (Debian's chromium and
chromium-driver, through Selenium) against a `judge service` started as a subprocess.

A student signs in with the key they were given, picks a problem, reads it (the statement from
Markdown, judge show's sections, hints one at a time, related problems as links), writes or
uploads a solution in the editor, runs the examples or submits, and reads the verdict, which is
scrolled into view and announced: AC with the examples listed, WA with the failing example's
inputs, expected, got and the entries outside the tolerance, RJ shown once for the whole
program, and a runtime error whose message is markup shown as text, never run. A reload keeps
the problem, the draft and the history; a phone-sized window has no sideways scrolling.

These tests skip, with the reason, only where chromium or its driver is missing and
JUDGE_REQUIRE_BROWSER is unset; CI sets JUDGE_REQUIRE_BROWSER=1, so there they fail instead.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import yaml

from tests.helpers import ROOT, free_port

pytestmark = pytest.mark.slow

#: CI sets this: a missing browser, driver or Selenium is then a failure, not a skip.
REQUIRED = os.environ.get("JUDGE_REQUIRE_BROWSER") == "1"
#: Debian's chromium package installs the browser as `chromium`, chromium-driver as `chromedriver`.
BROWSER = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
#: A page load, a submission graded on a busy 2-core machine (a whole problem, hidden cases too).
START_S, VERDICT_S = 90, 300

PROBLEM = "fake_quant_ste"
SUBMISSIONS = ROOT / "submissions" / PROBLEM
#: A runtime error whose message is markup: shown as text it changes nothing; parsed as HTML
#: it would add an element to the page and retitle it.
HOSTILE_SOURCE = '''\
def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    raise ValueError("<img id=injected src=x onerror=\\"document.title='pwned'\\">"
                     "<script>document.title='pwned'</script><b id=bold>bold</b>")
'''


def _missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if BROWSER is None or DRIVER is None:
        return ("chromium and chromedriver are not installed "
                "(apt-get install chromium chromium-driver; CI installs them)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


_why = _missing()
if _why is not None and not REQUIRED:
    pytest.skip(_why, allow_module_level=True)


def _free_port() -> int:
    return free_port()  # skips the test where no TCP socket can be opened


@pytest.fixture(scope="module", autouse=True)
def _browser_required():
    """With JUDGE_REQUIRE_BROWSER=1 a missing browser fails every test here, before anything
    starts (Selenium is never left to look for a driver of its own)."""
    if _why is not None:
        pytest.fail(f"JUDGE_REQUIRE_BROWSER=1 but {_why}")


@pytest.fixture(scope="module")
def service(tmp_path_factory):
    """`judge service` on a free port with its own data folder and a token from the environment:
    (base URL, token, log path)."""
    data = tmp_path_factory.mktemp("service-data")
    log = data / "service.log"  # in the data folder, so a test finds the folder from it
    token = secrets.token_urlsafe(24)
    port = _free_port()
    env = {**os.environ, "JUDGE_SERVICE_TOKEN": token}
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "judge", "service", "--host", "127.0.0.1", "--port", str(port),
             "--data", str(data), "--workers", "1"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + START_S
    while True:
        if proc.poll() is not None:
            pytest.fail(f"judge service exited with {proc.returncode} before serving:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(base + "/", timeout=5) as r:
                if r.status == 200:
                    break
        except (urllib.error.URLError, OSError):
            pass
        if time.monotonic() > deadline:
            proc.kill()
            pytest.fail(f"judge service did not serve / within {START_S} s:\n{log.read_text()}")
        time.sleep(0.5)
    try:
        yield base, token, log
    finally:
        os.killpg(proc.pid, 15)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, 9)
            proc.wait()


@pytest.fixture(scope="module")
def browser():
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = BROWSER
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--window-size=1200,1600"):
        options.add_argument(arg)
    # both paths given: Selenium looks nothing up and downloads nothing
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(START_S)
    try:
        yield driver
    finally:
        driver.quit()


def _by_id(driver, name):
    from selenium.webdriver.common.by import By
    return driver.find_element(By.ID, name)


def _css(driver, selector):
    from selenium.webdriver.common.by import By
    return driver.find_elements(By.CSS_SELECTOR, selector)


def _wait(driver, seconds, condition, what, log: Path | None = None):
    from selenium.common.exceptions import TimeoutException
    from selenium.webdriver.support.ui import WebDriverWait
    try:
        return WebDriverWait(driver, seconds, poll_frequency=0.25).until(condition)
    except TimeoutException:
        page = driver.find_element("tag name", "body").text
        tail = log.read_text()[-3000:] if log is not None and log.exists() else ""
        pytest.fail(f"{what} did not happen within {seconds} s; the page shows:\n{page}\n"
                    f"service log (end):\n{tail}")


def _open(driver, service, token=None):
    """The page, fresh (nothing kept: no token, no draft), with ``token`` (default: the
    service's) entered."""
    base, good, log = service
    driver.get(base + "/")
    driver.execute_script("sessionStorage.clear(); localStorage.clear()")
    driver.get(base + "/")
    _by_id(driver, "token").send_keys(token or good)
    _by_id(driver, "token-save").click()


def _pick_problem(driver, service, problem=PROBLEM, words="custom_vjp"):
    from selenium.webdriver.support.ui import Select
    log = service[2]
    _wait(driver, START_S, lambda d: _by_id(d, "problem").is_displayed() and any(
        o.get_attribute("value") == problem for o in Select(_by_id(d, "problem")).options),
          f"{problem} in the problem list", log)
    Select(_by_id(driver, "problem")).select_by_value(problem)
    _wait(driver, START_S, lambda d: words in _by_id(d, "statement").text,
          f"the statement of {problem}", log)


def _code(driver) -> str:
    return driver.execute_script("return window.judgeEditor.getValue()")


def _type_code(driver, text: str) -> None:
    """``text`` in the editor, as a paste puts it there (typing it key by key would get the
    editor's automatic indentation and closing brackets)."""
    driver.execute_script("window.judgeEditor.setValue(arguments[0])", text)


def _send_and_wait(driver, service, button="submit") -> str:
    """Click ``button`` and wait for the new submission's verdict."""
    before = _by_id(driver, "submission-id").get_attribute("textContent")
    # in the middle of the window, as a person scrolls to it (not under the phone's top buttons)
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", _by_id(driver, button))
    _by_id(driver, button).click()
    return _wait(driver, VERDICT_S, lambda d: _by_id(d, "submission-id").text not in ("", before)
                 and _by_id(d, "status").text == "done" and _by_id(d, "verdict").text,
                 "a verdict", service[2])


def _in_view(driver, name) -> bool:
    return driver.execute_script(
        "const r = document.getElementById(arguments[0]).getBoundingClientRect();"
        "return r.height > 0 && r.top >= 0 && r.bottom <= window.innerHeight;", name)


def _verdict_in_view_and_announced(driver, verdict):
    assert _in_view(driver, "verdict"), "the verdict is out of view"
    _wait(driver, 5, lambda d: _by_id(d, "announcer").text.startswith(f"Verdict: {verdict}"),
          "the announcement")
    assert _by_id(driver, "announcer").get_attribute("aria-live") in ("polite", "assertive")


def test_the_first_screen_speaks_to_a_student_and_a_wrong_key_is_refused(browser, service):
    browser.get(service[0] + "/")
    browser.execute_script("sessionStorage.clear(); localStorage.clear()")
    browser.get(service[0] + "/")
    first = _by_id(browser, "token-box").text
    assert "access key" in first.lower()
    for jargon in ("JUDGE_SERVICE_TOKEN", "token file", "$"):
        assert jargon not in browser.find_element("tag name", "body").text
    _open(browser, service, token="not-the-token")
    _wait(browser, START_S, lambda d: "401" in _by_id(d, "token-state").text,
          "the 401 message", service[2])
    assert "not accepted" in _by_id(browser, "token-state").text
    assert not _by_id(browser, "problem-box").is_displayed()
    assert browser.execute_script("return sessionStorage.length") == 0  # a refused key is dropped


def test_the_problem_is_shown_as_judge_show_gives_it(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    # two panes on a wide screen: the problem on the left, the editor on the right
    problem, work = _by_id(browser, "problem-box").rect, _by_id(browser, "work-box").rect
    assert work["x"] >= problem["x"] + problem["width"] and abs(work["y"] - problem["y"]) < 5
    # the statement from Markdown: paragraphs and a list, not one block of text
    assert len(_css(browser, "#statement p")) >= 3 and len(_css(browser, "#statement li")) >= 3
    signature = _by_id(browser, "signature").text
    assert signature.startswith("fake_quant_ste(x, scale, qmin, qmax, cotangent)")
    assert "x: array float32, traced: the values to quantize" in signature
    assert "1 to 6 entries" in signature and "more than qmin" in signature  # constraints
    assert "a dict with the keys values and grads" in _by_id(browser, "output").text
    assert "|got - expected| <= 1e-06 + 1e-06 * |expected|" in _by_id(browser, "tolerance").text
    assert "10 s per case" in _by_id(browser, "limits").text
    assert "100 points in 3 groups" in _by_id(browser, "scoring").text
    examples = _by_id(browser, "examples").text
    for name in ("clip_both_ends", "unsigned_2d", "ties_and_boundaries"):
        assert name in examples
    # floats as the spec writes them
    assert "x = [0.3, 1.25, -0.75, 2.6, -3.0] (float32)" in examples
    assert "scale = 1.0" in examples and "cotangent = [1.0, 1.0, 1.0, 1.0, 1.0]" in examples
    badges = [b.text for b in _css(browser, "#problem-badges .badge")]
    assert badges[0] == "medium" and "custom_vjp" in badges
    # the rules once: the statement states them; the judge's list is folded away
    assert not _by_id(browser, "rules").is_displayed()
    assert "custom_vjp_grads" in _by_id(browser, "rules").get_attribute("textContent")
    # the editor starts from the signature
    assert "def fake_quant_ste(x, scale, qmin, qmax, cotangent):" in _code(browser)
    assert _css(browser, ".CodeMirror .cm-keyword"), "no Python highlighting"
    # related problems are links to them
    links = _css(browser, "#related a")
    assert "#problem=sign_ste" in [link.get_attribute("href").split("/")[-1] for link in links]
    next(link for link in links if link.get_attribute("href").endswith("#problem=sign_ste")).click()
    _wait(browser, START_S, lambda d: "(sign_ste)" in _by_id(d, "problem-heading").text
          or "sign" in _by_id(d, "problem-heading").text.lower(), "the related problem")
    assert browser.execute_script("return document.getElementById('problem').value") == "sign_ste"
    assert "def " in _code(browser) and "fake_quant_ste" not in _code(browser)


def test_hints_are_revealed_one_at_a_time(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    assert _css(browser, "#hint-list li") == []
    button = _by_id(browser, "hint-next")
    assert "one at a time" in button.text
    button.click()
    hints = _css(browser, "#hint-list li")
    assert len(hints) == 1 and "custom_vjp" in hints[0].text
    assert re.fullmatch(r"Show hint 2 of (\d+)", button.text)
    total = int(re.fullmatch(r"Show hint 2 of (\d+)", button.text)[1])
    for _ in range(total - 1):
        button.click()
    assert len(_css(browser, "#hint-list li")) == total and not button.is_displayed()


def test_an_uploaded_honest_solution_is_ac_with_its_examples(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    _by_id(browser, "file").send_keys(str(SUBMISSIONS / "accepted" / "closure_vjp.py"))
    _wait(browser, 10, lambda d: "jax.custom_vjp" in _code(d), "the uploaded file in the editor")
    assert _send_and_wait(browser, service) == "AC"
    _verdict_in_view_and_announced(browser, "AC")
    assert _by_id(browser, "verdict-words").text == "Accepted"
    cases = _css(browser, "#cases .case")
    assert [c.get_attribute("data-verdict") for c in cases] == ["AC", "AC", "AC"]  # examples only
    assert "clip_both_ends" in cases[0].text and "x = [0.3, 1.25" in cases[0].text
    assert "AC" in _by_id(browser, "hidden-counts").text
    score = re.fullmatch(r"Score: (\S+) / (\S+)", _by_id(browser, "score").text)
    assert score and score[1] == score[2], _by_id(browser, "score").text  # full marks
    # the spec's scoring groups, each with its points (not one per case)
    groups = _css(browser, "#groups li")
    assert 0 < len(groups) < 10 and all(re.search(r": \S+ / \S+$", g.text) for g in groups)


def test_a_pasted_wrong_answer_shows_the_failing_example(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    source = (SUBMISSIONS / "wrong_answer" / "missing_clip.py").read_text()
    _type_code(browser, source)
    assert _send_and_wait(browser, service) == "WA"
    _verdict_in_view_and_announced(browser, "WA")
    assert "wrong_value" in _by_id(browser, "reason").text
    assert "example 0 (clip_both_ends)" in _by_id(browser, "message").text
    assert "forward pass must saturate" in _by_id(browser, "hint").text
    failing = _css(browser, "#cases .case.fail")
    assert failing, "no failing example shown"
    first = failing[0].text
    assert "clip_both_ends" in first
    lines = first.splitlines()
    inputs = next(line for line in lines if line.startswith("inputs: "))
    expected = next(line for line in lines if line.startswith("expected: "))
    got = next(line for line in lines if line.startswith("got: "))
    assert '"scale": 0.5' in inputs and '"qmin": -4' in inputs and '"x": [0.3, 1.25' in inputs
    assert ('"values": [0.5, 1.0, -1.0, 1.5, -2.0]' in expected
            and '"grads": [1.0, 1.0, 1.0, 0.0, 0.0]' in expected)
    assert ('"values": [0.5, 1.0, -1.0, 2.5, -3.0]' in got
            and '"grads": [1.0, 1.0, 1.0, 0.0, 0.0]' in got)
    from selenium.webdriver.common.by import By
    rows = [r.text for r in failing[0].find_elements(By.CSS_SELECTOR, "table.diff-table tr")]
    assert "values[3] 2.5 1.5" in rows and "values[4] -3.0 -2.0" in rows
    # the judge's own list of the entries outside the tolerance, not an exact comparison
    assert "Entries outside the tolerance" in first and len(rows) == 3  # a header and two entries
    hidden = _by_id(browser, "hidden-counts").text
    assert "WA" in hidden and "AC" in hidden
    # hidden cases stay counts: none of them is a block of its own
    assert len(_css(browser, "#cases .case")) == 3


def test_a_broken_rule_is_shown_once_for_the_whole_program(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    _type_code(browser, (SUBMISSIONS / "rejected" / "pure_callback.py").read_text())
    assert _send_and_wait(browser, service) == "RJ"
    _verdict_in_view_and_announced(browser, "RJ")
    assert "callback_used" in _by_id(browser, "reason").text
    message = _by_id(browser, "message").text
    assert "pure_callback" in message and not message.startswith("example 0")
    assert _by_id(browser, "whole-note").is_displayed()
    result = _by_id(browser, "result-box").text
    assert result.count("pure_callback") == 1, result  # once, not under every example
    assert _css(browser, "#cases .case") == []
    assert "Score: 0 / 100" in _by_id(browser, "score").text


def test_running_the_examples_is_not_a_submission(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    _type_code(browser, (SUBMISSIONS / "accepted" / "closure_vjp.py").read_text())
    assert _send_and_wait(browser, service, "run") == "AC"
    _verdict_in_view_and_announced(browser, "AC")
    assert _by_id(browser, "mode").text == "Run of the examples"
    assert _by_id(browser, "counts").text == "Examples: 3 AC"
    assert _by_id(browser, "score").text == "" and _by_id(browser, "hidden-counts").text == ""


def test_markup_in_a_submissions_message_is_shown_as_text(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    title = browser.title
    _type_code(browser, HOSTILE_SOURCE)
    assert _send_and_wait(browser, service) == "RTE"
    message = _by_id(browser, "message").text
    assert "<script>document.title='pwned'</script>" in message
    assert "<img id=injected" in message
    assert browser.find_elements("id", "injected") == []
    assert browser.find_elements("id", "bold") == []
    assert _css(browser, "#result-box img, #result-box script, #result-box b") == []
    time.sleep(1)  # an onerror handler would have run by now
    assert browser.title == title != "pwned"


#: A statement with math, and markup an author's text must never run or carry.
STATEMENT = (r"Minimize $\sum_i x_i^2$ over **x**." "\n\n" r"$$\frac{a}{b}$$" "\n\n"
             "<img id=injected2 src=x onerror=\"document.title='pwned'\">"
             "<script>document.title='pwned'</script> [ok](https://example.org) "
             "[bad](javascript:alert(1))")


def test_the_statement_renderer_keeps_math_and_drops_markup(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    found = browser.execute_script("""
        const box = document.createElement("div");
        document.body.appendChild(box);
        renderMarkdown(arguments[0], box);
        const out = {katex: box.querySelectorAll(".katex").length,
                     strong: box.querySelectorAll("strong").length,
                     img: box.querySelectorAll("img, script").length,
                     hrefs: [...box.querySelectorAll("a")].map((a) => a.getAttribute("href"))};
        box.remove();
        return out;""", STATEMENT)
    assert found["katex"] == 2 and found["strong"] == 1 and found["img"] == 0
    assert found["hrefs"] == ["https://example.org", None]
    time.sleep(0.5)
    assert browser.title != "pwned"


def test_a_reload_keeps_the_problem_the_draft_and_the_history(browser, service):
    _open(browser, service)
    _pick_problem(browser, service, "sign_ste", words="sign")
    sign = ROOT / "submissions" / "sign_ste"
    _type_code(browser, (sign / "wrong_answer" / "plain_sign.py").read_text())
    first = _send_and_wait(browser, service, "run")
    assert first == "WA"
    _type_code(browser, sorted((sign / "accepted").glob("*.py"))[0].read_text())
    assert _send_and_wait(browser, service, "run") == "AC"
    draft = "import jax\n\n\ndef ste_quantize(x):\n    # my draft, not sent\n    return x\n"
    _type_code(browser, draft)
    time.sleep(1)  # the draft is saved a moment after the last keystroke
    browser.refresh()  # the key stays in this tab: no new sign-in
    _wait(browser, START_S, lambda d: d.execute_script(
        "return document.getElementById('problem').value") == "sign_ste"
          and "my draft" in _code(d), "the problem and the draft after a reload", service[2])
    assert _code(browser) == draft
    # the last result is shown again, and the history lists both runs, newest first
    _wait(browser, VERDICT_S, lambda d: _by_id(d, "verdict").text == "AC", "the last result")
    rows = _wait(browser, START_S, lambda d: _css(d, "#history-rows tr")[:2] if len(
        _css(d, "#history-rows tr")) >= 2 else None, "the history")
    assert [r.find_element("css selector", ".verdict").text for r in rows] == ["AC", "WA"]
    assert "examples" in rows[0].text
    # reopen the older one: its verdict, and its code on demand
    rows[1].find_element("css selector", "button.open").click()
    _wait(browser, VERDICT_S, lambda d: _by_id(d, "verdict").text == "WA", "the reopened result")
    _verdict_in_view_and_announced(browser, "WA")
    _by_id(browser, "load-source").click()
    assert _code(browser) == (ROOT / "submissions/sign_ste/wrong_answer/plain_sign.py").read_text()


def test_the_service_logs_each_request_and_grade(service):
    import json

    base, token, log = service
    headers = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    source = (ROOT / "submissions/sign_ste/wrong_answer/plain_sign.py").read_text()
    body = json.dumps({"problem": "sign_ste", "source": source, "mode": "examples"}).encode()
    request = urllib.request.Request(base + "/api/v1/submissions", body, headers, method="POST")
    with urllib.request.urlopen(request, timeout=60) as r:
        sub_id = json.load(r)["id"]
    deadline = time.monotonic() + VERDICT_S
    while True:
        request = urllib.request.Request(f"{base}/api/v1/submissions/{sub_id}", headers=headers)
        with urllib.request.urlopen(request, timeout=60) as r:
            if json.load(r)["status"] == "done":
                break
        assert time.monotonic() < deadline, log.read_text()[-3000:]
        time.sleep(0.5)
    time.sleep(0.5)
    text = log.read_text()
    assert re.search(r"judge service: POST /api/v1/submissions 202 \d+ ms", text)
    assert re.search(rf"judge service: GET /api/v1/submissions/{sub_id} 200 \d+ ms", text)
    assert re.search(rf"judge service: submission {sub_id}: problem sign_ste, examples, "
                     r"verdict WA, [\d.]+ s after it was sent", text), text[-3000:]
    assert re.search(rf"judge service: graded {sub_id}: problem sign_ste, examples, "
                     r"verdict WA in [\d.]+ s", text), text[-3000:]
    assert token not in text  # never the key


# --- keyboard, phone, links, the list of problems, output, statements, write-ups -------------
#
# Each at both window sizes: a desktop (1400x900, two panes side by side) and a phone
# (390x844, one pane at a time behind the Problem and Code buttons).

DESKTOP, PHONE = (1400, 900), (390, 844)
SIZES = pytest.mark.parametrize("size", [DESKTOP, PHONE], ids=["desktop", "phone"])
AXE = ROOT / "judge/service/static/vendor/axe-core/axe.min.js"
#: A solution that prints: Python's print at trace time (a tracer), jax.debug.print at run time.
PRINTING_SOURCE = '''\
import jax
import jax.numpy as jnp


def ste_quantize(x):
    print("shape", x.shape, "x is", x)
    jax.debug.print("values {}", x)
    return jax.lax.stop_gradient(jnp.sign(x)) + (x - jax.lax.stop_gradient(x))
'''


class _Window:
    """The browser at ``size`` (a phone: mobile emulation, as a phone's browser lays out)."""

    def __init__(self, driver, size):
        self.driver, self.size = driver, size

    def __enter__(self):
        width, height = self.size
        self.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": self.size == PHONE})
        return self

    def __exit__(self, *exc):
        self.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def _show_code(driver, size):
    """The editor's pane: on a phone, through the Code button."""
    if size == PHONE:
        _by_id(driver, "tab-code").click()
    _wait(driver, 5, lambda d: _css(d, ".CodeMirror")[0].is_displayed(), "the editor")


def _active(driver) -> dict:
    return driver.execute_script("""
        const a = document.activeElement, s = getComputedStyle(a);
        return {id: a.id, tag: a.tagName, inEditor: Boolean(a.closest('.CodeMirror')),
                outline: s.outlineStyle === 'none' ? 0 : parseFloat(s.outlineWidth),
                text: (a.textContent || '').trim().slice(0, 40)};""")


@SIZES
def test_the_keyboard_reaches_every_control_and_leaves_the_editor_with_esc_then_tab(
        browser, service, size):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    with _Window(browser, size):
        _open(browser, service)
        _pick_problem(browser, service, "sign_ste", words="sign")
        _show_code(browser, size)
        assert "Esc" in _by_id(browser, "editor-keys").text  # the key is on the page
        _type_code(browser, "x = 1\n")
        browser.execute_script("window.judgeEditor.focus(); window.judgeEditor.setCursor(1, 0)")
        keys = ActionChains(browser)
        keys.send_keys(Keys.TAB).perform()  # Tab alone indents, and stays in the editor
        assert _code(browser) == "x = 1\n    " and _active(browser)["inEditor"]
        assert browser.execute_script(
            "return getComputedStyle(document.querySelector('.CodeMirror')).outlineStyle") != "none"
        keys.send_keys(Keys.ESCAPE).send_keys(Keys.TAB).perform()
        after = _active(browser)
        assert not after["inEditor"] and after["outline"] >= 2, after
        assert _code(browser) == "x = 1\n    "  # nothing typed on the way out
        # Shift-Tab goes back into the editor; Esc, Shift-Tab out the other way
        keys.key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        assert _active(browser)["inEditor"]
        keys.send_keys(Keys.ESCAPE).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        assert not _active(browser)["inEditor"]
        # forward from the editor: every control of the pane, each visibly focused
        browser.execute_script("window.judgeEditor.focus()")
        keys.send_keys(Keys.ESCAPE).perform()
        reached = []
        for _ in range(25):
            keys.send_keys(Keys.TAB).perform()
            now = _active(browser)
            assert now["outline"] >= 2, now  # a visible focus ring
            reached.append(now["id"] or now["text"])
            if now["id"] == "submit":
                break
        assert "run" in reached and "submit" in reached, reached
        _by_id(browser, "submit").send_keys(Keys.ENTER)  # and Enter sends
        _wait(browser, START_S, lambda d: _by_id(d, "submission-id").text, "a submission by keyboard")


@SIZES
def test_the_page_passes_an_accessibility_check(browser, service, size):
    """axe-core (vendored, run in the page) finds nothing serious or critical: on the sign-in
    form, and on a problem with a result shown."""
    def check(where):
        browser.execute_script(AXE.read_text())
        found = browser.execute_async_script("""
            const done = arguments[arguments.length - 1];
            axe.run(document).then(
                (r) => done({passed: r.passes.length, violations: r.violations.map((v) => ({
                    id: v.id, impact: v.impact,
                    nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' '))}))}),
                (e) => done({passed: 0, violations: [{id: String(e), impact: 'critical'}]}));""")
        assert found["passed"] >= 10, found  # the check ran
        bad = [v for v in found["violations"] if v["impact"] in ("serious", "critical")]
        assert not bad, f"{where}: {bad}"

    browser.set_script_timeout(60)
    with _Window(browser, size):
        browser.get(service[0] + "/")
        browser.execute_script("sessionStorage.clear(); localStorage.clear()")
        browser.get(service[0] + "/")
        check("the sign-in form")
        _open(browser, service)
        _pick_problem(browser, service, "sign_ste", words="sign")
        _by_id(browser, "catalogue-title").click()  # the list of problems open too
        _css(browser, "#examples button.try-input")[0].click()  # and an input to edit
        check("a problem")
        _show_code(browser, size)
        _type_code(browser, PRINTING_SOURCE)
        assert _send_and_wait(browser, service, "run") == "AC"
        check("a result")


def _new_student(service) -> str:
    """A token of a student who has sent nothing yet: a line added to the service's token file,
    which it reads again at the next request."""
    path = service[2].parent / "tokens"
    token = secrets.token_urlsafe(24)
    before = path.read_text() if path.exists() else ""
    path.write_text(before + token + "\n")
    path.chmod(0o600)
    return token


#: Every element a finger may tap, and whether each is visible.
TARGETS = """
    return [...document.querySelectorAll('button, select, input, summary, a[href]')]
      .filter((e) => e.getClientRects().length && !e.closest('.statement'))
      .map((e) => ({what: e.id || e.textContent.trim().slice(0, 30) || e.tagName,
                    height: e.getBoundingClientRect().height}));"""
#: Elements that pass the window's right edge, but for those inside a region that scrolls
#: sideways on its own (a wide table or line of code) or clips what passes its edge (the
#: editor's own scroller).
OVERFLOW = """
    const edge = document.documentElement.clientWidth;
    const scrolls = (e) => { for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
        if (getComputedStyle(p).overflowX !== 'visible') return true; }
      return false; };
    return [document.documentElement.scrollWidth - edge,
            [...document.querySelectorAll('body *')].filter((e) => {
              const r = e.getBoundingClientRect();
              return r.width > 0 && r.right > edge + 1 && !scrolls(e); })
              .slice(0, 5).map((e) => e.id || e.className || e.tagName)];"""


def _no_overflow(driver, where):
    extra, past = driver.execute_script(OVERFLOW)
    assert extra <= 0 and not past, f"{where}: {extra} px too wide; past the edge: {past}"


def _taps_are_44px(driver, where):
    small = [t for t in driver.execute_script(TARGETS) if t["height"] < 44]
    assert not small, f"{where}: tap targets under 44 px: {small}"


@SIZES
def test_the_editor_is_reachable_at_once_and_nothing_overflows(browser, service, size):
    """A desktop keeps both panes side by side; a phone shows one at a time, the Code button
    on the first screen, no sideways scrolling anywhere, every tap target 44 px or more."""
    with _Window(browser, size):
        _open(browser, service)
        _pick_problem(browser, service)
        problem, work = _by_id(browser, "problem-box"), _by_id(browser, "work-box")
        if size == DESKTOP:
            assert not _by_id(browser, "pane-tabs").is_displayed()
            assert work.rect["x"] >= problem.rect["x"] + problem.rect["width"]
            assert _in_view(browser, "problem-heading") and _css(browser, ".CodeMirror")[0].rect["y"] < 900
        else:
            tab = _by_id(browser, "tab-code")
            assert tab.rect["y"] + tab.rect["height"] <= 844  # on the first screen
            assert problem.is_displayed() and not work.is_displayed()
            _no_overflow(browser, "the problem")
            _taps_are_44px(browser, "the problem")
            browser.execute_script("window.scrollTo(0, 2000)")
            assert _in_view(browser, "tab-code")  # kept at the top while reading
            tab.click()
            assert work.is_displayed() and not problem.is_displayed()
            assert _css(browser, ".CodeMirror")[0].rect["y"] < 844
            assert _by_id(browser, "tab-code").get_attribute("aria-pressed") == "true"
        _type_code(browser, (SUBMISSIONS / "wrong_answer" / "missing_clip.py").read_text())
        assert _send_and_wait(browser, service) == "WA"
        _verdict_in_view_and_announced(browser, "WA")
        _wait(browser, START_S, lambda d: _css(d, "#history-rows button.open"), "the history")
        _no_overflow(browser, "a result and the history")
        if size == PHONE:
            _taps_are_44px(browser, "a result and the history")
            _by_id(browser, "tab-problem").click()
            _by_id(browser, "catalogue-title").click()
            _no_overflow(browser, "the list of problems")
            _taps_are_44px(browser, "the list of problems")


@SIZES
def test_a_link_opens_a_problem_and_the_list_shows_what_this_student_solved(
        browser, service, size):
    from selenium.webdriver.support.ui import Select

    base, _, log = service
    with _Window(browser, size):
        _open(browser, service, token=_new_student(service))
        _pick_problem(browser, service)
        assert browser.current_url.endswith("#problem=fake_quant_ste")
        Select(_by_id(browser, "problem")).select_by_value("hvp_tanh")
        _wait(browser, START_S, lambda d: d.current_url.endswith("#problem=hvp_tanh"), "the address")
        # a link opens its problem, in a page loaded afresh
        browser.get("about:blank")
        browser.get(base + "/#problem=sign_ste")
        _wait(browser, START_S, lambda d: "sign" in _by_id(d, "statement").text
              and d.execute_script("return document.getElementById('problem').value") == "sign_ste",
              "the linked problem", log)
        # the list: every problem with its id, title, difficulty and tags, none tried yet
        _by_id(browser, "catalogue-title").click()
        rows = _css(browser, "#catalogue-rows tr")
        assert len(rows) == len(list((ROOT / "problems").glob("*.yaml")))
        sign = next(r for r in rows if r.get_attribute("data-id") == "sign_ste")
        assert "Sign with a straight-through derivative" in sign.text and "sign_ste" in sign.text
        assert "medium" in sign.text and "straight_through" in sign.text
        assert {r.get_attribute("data-state") for r in rows} == {"new"}
        assert "0 solved, 0 attempted" in _by_id(browser, "catalogue-title").text
        _show_code(browser, size)
        sign_dir = ROOT / "submissions" / "sign_ste"
        _type_code(browser, (sign_dir / "wrong_answer" / "plain_sign.py").read_text())
        assert _send_and_wait(browser, service, "run") == "WA"
        _wait(browser, START_S, lambda d: "0 solved, 1 attempted" in _by_id(d, "catalogue-title")
              .get_attribute("textContent"), "attempted in the list", log)
        assert not _by_id(browser, "editorial-box").is_displayed()  # not before it is solved
        _type_code(browser, sorted((sign_dir / "accepted").glob("*.py"))[0].read_text())
        assert _send_and_wait(browser, service) == "AC"
        _wait(browser, START_S, lambda d: "1 solved, 0 attempted" in _by_id(d, "catalogue-title")
              .get_attribute("textContent"), "solved in the list", log)
        state = browser.execute_script(
            "return document.querySelector('#catalogue-rows tr[data-id=sign_ste]').dataset.state")
        assert state == "solved"
        # the author's write-up, now, with its math typeset
        _wait(browser, START_S, lambda d: _by_id(d, "editorial-box").is_displayed(), "the write-up", log)
        assert len(_by_id(browser, "editorial").text) > 200
        # dates in the history: the day, not only the time
        sent = [r.find_element("css selector", "td time") for r in _css(browser, "#history-rows tr")]
        assert len(sent) == 2
        today = time.strftime("%Y-%m-%d")
        assert all(re.fullmatch(rf"{today} \d\d:\d\d:\d\d", t.text) for t in sent), [t.text for t in sent]


@SIZES
def test_what_the_code_prints_on_the_examples_is_shown_with_one_note_on_tracers(
        browser, service, size):
    with _Window(browser, size):
        _open(browser, service)
        _pick_problem(browser, service, "sign_ste", words="sign")
        _show_code(browser, size)
        _type_code(browser, PRINTING_SOURCE)
        assert _send_and_wait(browser, service) == "AC"
        cases = _css(browser, "#cases .case")
        assert len(cases) == 3  # the examples; hidden cases are counts, with nothing printed
        printed = [c.find_element("css selector", "pre.printed-text.stdout").text for c in cases]
        assert "shape (5,) x is JitTracer(float32[5])" in printed[0]
        assert "values [-2.  -0.   0.   0.5  3. ]" in printed[0]  # jax.debug.print: the values
        note = _by_id(browser, "print-note")
        assert note.is_displayed() and "jax.debug.print" in note.text
        assert _by_id(browser, "result-box").text.count("jax.debug.print") == 1
        _no_overflow(browser, "printed output")


@SIZES
def test_every_bundled_statement_is_typeset(browser, service, size):
    """Formulas by KaTeX (none left as TeX, none refused by it), identifiers as code, and a
    displayed formula scrolls within itself rather than the page."""
    with _Window(browser, size):
        _open(browser, service)
        _pick_problem(browser, service)
        for path in sorted((ROOT / "problems").glob("*.yaml")):
            title = yaml.safe_load(path.read_text())["title"]
            browser.execute_script("location.hash = arguments[0]", "#problem=" + path.stem)
            _wait(browser, START_S, lambda d: _by_id(d, "problem-heading").text == title,
                  f"the statement of {path.stem}", service[2])
            found = browser.execute_script("""
                const s = document.getElementById('statement');
                return {katex: s.querySelectorAll('.katex').length,
                        errors: s.querySelectorAll('.katex-error').length,
                        code: [...s.querySelectorAll('code')].map((c) => c.textContent),
                        dollars: s.textContent.replace(/<[^>]*>/g, '').includes('$$')};""")
            assert found["katex"] >= 1 and found["errors"] == 0 and not found["dollars"], (path.stem, found)
            assert any("(" in c for c in found["code"]), (path.stem, found["code"])  # the signature
            _no_overflow(browser, path.stem)


@SIZES
def test_a_run_on_the_students_own_input_shows_their_output_beside_the_references(
        browser, service, size):
    """The student edits an example's inputs; the result shows what an example shows: on a
    failure the inputs, the reference's output (expected), theirs (got) and the entries that
    differ; on a pass the reference's output; what the code printed either way. An input the
    problem does not admit is refused before anything runs, naming the parameter."""
    with _Window(browser, size):
        _open(browser, service)
        _pick_problem(browser, service, "sign_ste", words="sign")
        # the textbook straight-through sign, which loses the sign of a large x
        _type_code(browser, "import jax\nimport jax.numpy as jnp\n\n\ndef ste_quantize(x):\n"
                            "    jax.debug.print('x = {}', x)\n"
                            "    return x + jax.lax.stop_gradient(jnp.sign(x) - x)\n")
        if size == PHONE:
            _by_id(browser, "tab-problem").click()
        example = _css(browser, "#examples .example")[0]
        opener = example.find_element("css selector", "button.try-input")
        browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", opener)
        opener.click()
        area = _by_id(browser, "input-0-x")
        assert area.is_displayed() and area.get_attribute("value").startswith("[")

        def run(text):
            area.clear()
            area.send_keys(text)
            button = example.find_element("css selector", "button.run-input")
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
            before = _by_id(browser, "submission-id").get_attribute("textContent")
            button.click()
            return before

        run("[1, 2")  # not JSON: said at once, nothing sent
        state = example.find_element("css selector", ".input-state")
        assert "x: not a value" in state.text
        run("[" + ", ".join(["1.0"] * 65) + "]")  # past the problem's bound: refused by the API
        _wait(browser, START_S, lambda d: "400" in state.text, "the refusal")
        assert "x: has 65 entries, at most 64 allowed" in state.text
        before = run("[1e9, -2.0, 0.0]")
        verdict = _wait(browser, VERDICT_S, lambda d: _by_id(d, "submission-id").text not in ("", before)
                        and _by_id(d, "status").text == "done" and _by_id(d, "verdict").text,
                        "the run on the input", service[2])
        assert verdict == "WA" and _by_id(browser, "mode").text == "Run on your input"
        assert _by_id(browser, "work-box").is_displayed()  # the result pane, on a phone too
        (case,) = _css(browser, "#cases .case")
        text = case.text
        assert "inputs:   {\"x\": [1000000000.0, -2.0, 0.0]}" in text
        assert "expected: [1.0, -1.0, 0.0]" in text and "got:      [0.0, -1.0, 0.0]" in text
        assert "x = [ 1.e+09 -2.e+00  0.e+00]" in text  # what it printed, on this input
        assert _by_id(browser, "score").text == ""  # not scored
        if size == PHONE:
            _by_id(browser, "tab-problem").click()
        before = run("[2.0, -0.5]")
        assert _wait(browser, VERDICT_S, lambda d: _by_id(d, "submission-id").text not in ("", before)
                     and _by_id(d, "status").text == "done" and _by_id(d, "verdict").text,
                     "the second run", service[2]) == "AC"
        text = _css(browser, "#cases .case")[0].text
        assert "reference: [1.0, -1.0]" in text and "yours:     the reference's output" in text
        _no_overflow(browser, "a run on an input")


@SIZES
def test_a_double_click_sends_one_submission(browser, service, size):
    from selenium.webdriver.common.action_chains import ActionChains

    with _Window(browser, size):
        _open(browser, service, token=_new_student(service))
        _pick_problem(browser, service, "sign_ste", words="sign")
        _show_code(browser, size)
        _type_code(browser, (ROOT / "reference/sign_ste.py").read_text())
        for button in ("run", "submit"):
            target = _by_id(browser, button)
            browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", target)
            ActionChains(browser).double_click(target).perform()
            _wait(browser, VERDICT_S, lambda d: _by_id(d, "status").text == "done"
                  and _by_id(d, "verdict").text == "AC", "the verdict", service[2])
        _wait(browser, START_S, lambda d: "2 in all." in _by_id(d, "history-state").text,
              "the history", service[2])
        time.sleep(1)  # a second request would have been listed by now
        assert len(_css(browser, "#history-rows tr")) == 2
def test_the_page_warns_when_the_service_grades_without_its_sandbox(browser, service, tmp_path):
    """Only a service told `--sandbox none` shows the warning, before anyone signs in."""
    base, _, log = service
    browser.get(base + "/")
    time.sleep(1.0)  # the health answer had time to arrive
    assert not _by_id(browser, "unsandboxed").is_displayed()
    port = _free_port()
    env = {**os.environ, "JUDGE_SERVICE_TOKEN": secrets.token_urlsafe(24)}
    with open(tmp_path / "bare.log", "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "judge", "service", "--port", str(port), "--data",
             str(tmp_path / "data"), "--workers", "0", "--sandbox", "none"],
            cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + START_S
        while True:
            assert proc.poll() is None, (tmp_path / "bare.log").read_text()
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
                break
            except OSError:
                assert time.monotonic() < deadline, (tmp_path / "bare.log").read_text()
                time.sleep(0.3)
        browser.get(f"http://127.0.0.1:{port}/")
        banner = _wait(browser, 30, lambda d: _by_id(d, "unsandboxed").is_displayed() and
                       _by_id(d, "unsandboxed"), "the warning about the missing sandbox")
        assert "--sandbox none" in banner.text
    finally:
        os.killpg(proc.pid, 15)
        proc.wait(timeout=30)
