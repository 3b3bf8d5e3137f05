"""The grading page at `/`, driven in a real headless browser (Debian's chromium and
chromium-driver, through Selenium) against a `judge service` started as a subprocess.

A user enters the token, picks a problem, reads its examples, uploads or pastes a solution and
watches the verdict arrive: AC with the examples listed, WA with the failing example's got and
expected, and a runtime error whose message is markup shown as text, never run.

These tests skip, with the reason, only where chromium or its driver is missing and
JUDGE_REQUIRE_BROWSER is unset; CI sets JUDGE_REQUIRE_BROWSER=1, so there they fail instead.
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.helpers import ROOT

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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
    log = data.parent / "service.log"
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
    """The page, fresh (no token kept), with ``token`` (default: the service's) entered."""
    base, good, log = service
    driver.get(base + "/")
    driver.execute_script("sessionStorage.clear()")
    driver.get(base + "/")
    _by_id(driver, "token").send_keys(token or good)
    _by_id(driver, "token-save").click()


def _pick_problem(driver, service):
    from selenium.webdriver.support.ui import Select
    log = service[2]
    _wait(driver, START_S, lambda d: any(o.get_attribute("value") == PROBLEM for o in
                                         Select(_by_id(d, "problem")).options),
          f"{PROBLEM} in the problem list", log)
    Select(_by_id(driver, "problem")).select_by_value(PROBLEM)
    _wait(driver, START_S, lambda d: "custom_vjp" in _by_id(d, "statement").text,
          f"the statement of {PROBLEM}", log)


def _submit_and_wait(driver, service) -> str:
    _by_id(driver, "submit").click()
    return _wait(driver, VERDICT_S, lambda d: _by_id(d, "verdict").text,
                 "a verdict", service[2])


def test_a_wrong_token_is_refused_and_nothing_is_shown(browser, service):
    _open(browser, service, token="not-the-token")
    _wait(browser, START_S, lambda d: "401" in _by_id(d, "token-state").text,
          "the 401 message", service[2])
    assert not _by_id(browser, "problem-box").is_displayed()
    assert browser.execute_script("return sessionStorage.length") == 0  # a refused token is dropped


def test_an_uploaded_honest_solution_is_ac_with_its_examples(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    examples = _by_id(browser, "examples").text
    for name in ("clip_both_ends", "unsigned_2d", "ties_and_boundaries"):
        assert name in examples
    assert "x = [0.3, 1.25, -0.75, 2.6, -3" in examples  # an example's input
    _by_id(browser, "file").send_keys(str(SUBMISSIONS / "accepted" / "closure_vjp.py"))
    _wait(browser, 10, lambda d: "jax.custom_vjp" in _by_id(d, "source").get_attribute("value"),
          "the uploaded file in the text area")
    assert _submit_and_wait(browser, service) == "AC"
    assert _by_id(browser, "status").text == "done"
    from selenium.webdriver.common.by import By
    cases = browser.find_elements(By.CSS_SELECTOR, "#cases .case")
    assert [c.get_attribute("data-verdict") for c in cases] == ["AC", "AC", "AC"]  # examples only
    assert "clip_both_ends" in cases[0].text
    assert "AC" in _by_id(browser, "hidden-counts").text
    score = re.fullmatch(r"Score: (\S+) / (\S+)", _by_id(browser, "score").text)
    assert score and score[1] == score[2], _by_id(browser, "score").text  # full marks
    # the spec's scoring groups, each with its points (not one per case)
    groups = browser.find_elements(By.CSS_SELECTOR, "#groups li")
    assert 0 < len(groups) < 10 and all(re.search(r": \S+ / \S+$", g.text) for g in groups)


def test_a_pasted_wrong_answer_shows_the_failing_example(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    source = (SUBMISSIONS / "wrong_answer" / "missing_clip.py").read_text()
    _by_id(browser, "source").send_keys(source)
    assert _by_id(browser, "source").get_attribute("value").strip() == source.strip()
    assert _submit_and_wait(browser, service) == "WA"
    assert "wrong_value" in _by_id(browser, "reason").text
    assert "example 0 (clip_both_ends)" in _by_id(browser, "message").text
    assert "forward pass must saturate" in _by_id(browser, "hint").text
    from selenium.webdriver.common.by import By
    failing = browser.find_elements(By.CSS_SELECTOR, "#cases .case.fail")
    assert failing, "no failing example shown"
    first = failing[0].text
    assert "clip_both_ends" in first
    lines = first.splitlines()
    expected = next(line for line in lines if line.startswith("expected: "))
    got = next(line for line in lines if line.startswith("got: "))
    assert '"values": [0.5, 1, -1, 1.5, -2]' in expected and '"grads": [1, 1, 1, 0, 0]' in expected
    assert '"values": [0.5, 1, -1, 2.5, -3]' in got and '"grads": [1, 1, 1, 0, 0]' in got
    rows = [r.text for r in failing[0].find_elements(By.CSS_SELECTOR, "table.diff-table tr")]
    assert "values[3] 2.5 1.5" in rows and "values[4] -3 -2" in rows
    # the judge's own list of the entries outside the tolerance, not an exact comparison
    assert "Entries outside the tolerance" in first and len(rows) == 3  # a header and two entries
    hidden = _by_id(browser, "hidden-counts").text
    assert "WA" in hidden and "AC" in hidden
    # hidden cases stay counts: none of them is a block of its own
    assert len(browser.find_elements(By.CSS_SELECTOR, "#cases .case")) == 3


def test_markup_in_a_submissions_message_is_shown_as_text(browser, service):
    _open(browser, service)
    _pick_problem(browser, service)
    title = browser.title
    _by_id(browser, "source").send_keys(HOSTILE_SOURCE)
    assert _submit_and_wait(browser, service) == "RTE"
    message = _by_id(browser, "message").text
    assert "<script>document.title='pwned'</script>" in message
    assert "<img id=injected" in message
    from selenium.webdriver.common.by import By
    assert browser.find_elements(By.ID, "injected") == []
    assert browser.find_elements(By.ID, "bold") == []
    assert browser.find_elements(By.CSS_SELECTOR, "#result-box img, #result-box script, #result-box b") == []
    time.sleep(1)  # an onerror handler would have run by now
    assert browser.title == title != "pwned"
