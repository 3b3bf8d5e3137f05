"""Take the screenshots of the service's page (README, docs/students.md) in headless chromium.

    python docs/screenshots/take.py [--out docs/screenshots]

Starts `judge service` from this checkout on a free port, with a data folder and a token of its
own (both thrown away), then, through chromedriver: a wide window that submits a wrong answer
to fake_quant_ste (``wide-wrong-answer.png``), and a 420-pixel-wide one that submits, from its
Code pane, a solution breaking a rule (``phone-rule-broken.png``). Where ImageMagick's ``convert`` works,
each PNG is then reduced to 64 colours, which makes it smaller; otherwise it is kept as taken.
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUBMISSIONS = ROOT / "submissions" / "fake_quant_ste"
SHOTS = [  # (file name, window width, height, submission)
    ("wide-wrong-answer.png", 1280, 820, SUBMISSIONS / "wrong_answer" / "missing_clip.py"),
    ("phone-rule-broken.png", 420, 860, SUBMISSIONS / "rejected" / "pure_callback.py"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _service(data: Path, token: str, port: int) -> subprocess.Popen:
    env = {**os.environ, "JUDGE_SERVICE_TOKEN": token}
    proc = subprocess.Popen([sys.executable, "-m", "judge", "service", "--port", str(port),
                             "--data", str(data), "--workers", "1"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)
    deadline = time.monotonic() + 120
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
            return proc
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise SystemExit("judge service did not start")
            time.sleep(0.3)


def _shoot(base: str, token: str, name: str, width: int, height: int, source: Path,
           out: Path) -> Path:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait

    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or shutil.which("chromium-browser")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                "--hide-scrollbars", f"--window-size={max(width, 500)},{height}"):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=options)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {
            "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600})
        driver.get(base + "/")
        driver.find_element(By.ID, "token").send_keys(token)
        driver.find_element(By.ID, "token-save").click()
        wait = WebDriverWait(driver, 300, poll_frequency=0.25)
        wait.until(lambda d: len(Select(d.find_element(By.ID, "problem")).options) > 0)
        Select(driver.find_element(By.ID, "problem")).select_by_value("fake_quant_ste")
        wait.until(lambda d: "custom_vjp" in d.find_element(By.ID, "statement").text)
        driver.execute_script("window.judgeEditor.setValue(arguments[0])", source.read_text())
        if width < 1000:  # a narrow screen shows one pane at a time: the code and its result
            driver.find_element(By.ID, "tab-code").click()
        driver.find_element(By.ID, "submit").click()
        wait.until(lambda d: d.find_element(By.ID, "status").text == "done")
        time.sleep(0.5)
        if width >= 1000:  # the whole first screen: the problem's top beside the result
            driver.execute_script("window.scrollTo(0, 0);"
                                  "document.getElementById('work-box').scrollTop = "
                                  "document.getElementById('result-box').offsetTop - 40")
            time.sleep(0.3)
        path = out / name
        driver.save_screenshot(str(path))
        return path
    finally:
        driver.quit()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).resolve().parent)
    args = parser.parse_args(argv)
    token, port = secrets.token_urlsafe(24), _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        proc = _service(Path(tmp) / "data", token, port)
        try:
            for name, width, height, source in SHOTS:
                path = _shoot(f"http://127.0.0.1:{port}", token, name, width, height, source,
                              args.out)
                if shutil.which("convert"):  # optional: a failure keeps the PNG as taken
                    subprocess.run(["convert", str(path), "-colors", "64", f"PNG8:{path}"],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                print(f"{path} ({path.stat().st_size // 1024} KiB)")
        finally:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=60)
    return 0


if __name__ == "__main__":
    sys.exit(main())
