"""Formgrader in a real browser (issue 28): an instructor grades a written answer on nbgrader's
own page, in headless Chromium, and the totals change.

A classroom course is built (docs/classroom.md), one student's set C with a written answer for C1
is autograded ("to grade": nbgrader's needs_manual_grade), and nbgrader's formgrader is started
as the instructor starts it (``jupyter server`` in the course folder; localhost, no token). The
browser, driven over the Chrome DevTools Protocol (websocket-client, in the lock; no Playwright),
opens the gradebook page, follows the student's link to the grading page, types a score into
C1's score box and leaves it, as a grader does. The gradebook page then shows the new written
score and total, and ``nbgrader export`` the graded written answer.

Needs Chromium at /usr/bin/chromium (``apt-get install chromium``; CI lacks it: skipped, said so)
and nbgrader (``make deps-classroom``).
"""

from __future__ import annotations

import csv
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
pytestmark = pytest.mark.skipif(
    not CHROMIUM.is_file(), reason=f"{CHROMIUM} is missing: the formgrader browser test needs Chromium"
)
pytest.importorskip("nbgrader", reason="nbgrader is missing: make deps-classroom")
websocket = pytest.importorskip("websocket", reason="websocket-client is missing")

from tests.test_classroom import BIN, Class, answered  # noqa: E402 - after the skips

WAIT_S = 120  # the longest any page or server is waited for (a wait, not an assertion on time)
WRITTEN = "70B x 16 bytes = 1120 GB of weights, gradients and Adam states: full fine-tuning needs 14 GPUs of 80 GB."


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what: str, probe):
    """``probe()``'s first true value, waiting up to WAIT_S; a failure says what never came."""
    deadline = time.monotonic() + WAIT_S
    while True:
        try:
            value = probe()
        except OSError:
            value = None
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"never came: {what}")
        time.sleep(0.25)


def get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read()


class Browser:
    """Headless Chromium, one page, driven over the DevTools protocol."""

    def __init__(self, tmp: Path):
        port = free_port()
        self.proc = subprocess.Popen(
            [
                str(CHROMIUM),
                "--headless",
                "--disable-gpu",
                "--no-first-run",
                *(["--no-sandbox"] if os.geteuid() == 0 else []),  # Chromium refuses root otherwise
                f"--remote-debugging-port={port}",
                f"--user-data-dir={tmp / 'chromium'}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        pages = wait_for(
            "Chromium's DevTools endpoint",
            lambda: [t for t in json.loads(get(f"http://127.0.0.1:{port}/json/list")) if t["type"] == "page"],
        )
        self.ws = websocket.create_connection(pages[0]["webSocketDebuggerUrl"], timeout=30, suppress_origin=True)
        self.ids = 0

    def send(self, method: str, **params) -> dict:
        self.ids += 1
        self.ws.send(json.dumps({"id": self.ids, "method": method, "params": params}))
        while True:
            msg = json.loads(self.ws.recv())
            if msg.get("id") == self.ids:
                assert "error" not in msg, (method, msg)
                return msg["result"]

    def js(self, expression: str):
        out = self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in out, out
        return out["result"].get("value")

    def open(self, url: str, ready: str):
        """Load ``url`` and wait until the JavaScript ``ready`` is true (the page builds its tables itself)."""
        self.send("Page.navigate", url=url)
        wait_for(f"{url}: {ready}", lambda: self.js(f"document.readyState === 'complete' && !!({ready})"))

    def close(self):
        self.ws.close()
        self.proc.terminate()
        self.proc.wait(timeout=30)


ROW = "[...document.querySelectorAll('tbody tr')].find(tr => tr.textContent.includes('ada'))"


def ada_row(browser: Browser, base: str) -> dict:
    browser.open(f"{base}/formgrader/gradebook/set_C/set_C", ROW)
    return browser.js(
        f"(() => {{ const tr = {ROW}; return {{"
        "score: tr.querySelector('.score').innerText.trim(),"
        "written: tr.querySelector('.written-score').innerText.trim(),"
        "to_grade: tr.querySelector('.needs-manual-grade').getAttribute('data-order'),"
        "link: tr.querySelector('a.name-shown').href}; })()"
    )


SAVE_TRIES, SAVE_WAIT_S = 5, 20.0


def saved(k: Class, wait_s: float) -> bool:
    """Whether the gradebook holds the written answer's score of 4 within ``wait_s`` (formgrader
    saves it through its API when the box is left)."""
    from nbgrader.api import Gradebook

    deadline = time.monotonic() + wait_s
    while time.monotonic() < deadline:
        with Gradebook(f"sqlite:///{k.course / 'gradebook.db'}") as gb:
            grade = gb.find_grade("C1__written", "set_C", "set_C", "ada")
            if grade.manual_score == 4:
                return True
        time.sleep(0.5)
    return False


def exported(k: Class) -> dict:
    k.nbgrader("export", "export")
    with (k.course / "grades.csv").open() as f:
        return next(r for r in csv.DictReader(f) if (r["assignment"], r["student_id"]) == ("set_C", "ada"))


@pytest.fixture
def formgrader(tmp_path):
    """A course with ada's set C autograded, formgrader serving it, and a browser."""
    k = Class(tmp_path)
    k.grader("build", "classroom", "build", str(k.course), cwd=k.project)
    k.nbgrader("generate_assignment", "generate_assignment", "set_C")
    k.submit("ada", "set_C", answered(k.notebook("release", "set_C"), C1__written=WRITTEN))
    k.nbgrader("autograde", "autograde", "set_C")
    port = free_port()
    log = open(tmp_path / "server.log", "wb")  # noqa: SIM115 - open while the server runs
    server = subprocess.Popen(
        [
            str(BIN / "jupyter"),
            "server",
            "--no-browser",
            "--ServerApp.ip=127.0.0.1",
            f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0",
            "--IdentityProvider.token=",
            "--ServerApp.password=",
            f"--ServerApp.root_dir={k.course}",
            *(["--allow-root"] if os.geteuid() == 0 else []),
        ],
        cwd=k.course,
        env={**k.env, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"), "HOME": str(tmp_path)},
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    base = f"http://127.0.0.1:{port}"
    browser = None
    try:
        wait_for("formgrader's API", lambda: json.loads(get(f"{base}/formgrader/api/status")).get("status"))
        browser = Browser(tmp_path)
        yield k, browser, base
    finally:
        if browser is not None:
            browser.close()
        server.terminate()
        server.wait(timeout=30)
        log.close()
        print((tmp_path / "server.log").read_text()[-3000:], file=sys.stderr)


def test_a_written_answer_graded_on_the_formgrader_page_changes_the_totals(formgrader):
    k, browser, base = formgrader
    before = ada_row(browser, base)
    assert before["to_grade"] == "1" and before["written"].startswith("0 / "), before
    assert exported(k)["written_to_grade"] == "1"

    for _attempt in range(SAVE_TRIES):  # under load the box can exist before formgrader's script binds it
        browser.open(before["link"], "document.querySelector('input.score#C1__written')")
        assert WRITTEN[:40] in browser.js("document.body.innerText")  # the answer the grader reads
        browser.js("(() => { const box = document.querySelector('#C1__written'); box.focus(); box.select(); })()")
        browser.send("Input.insertText", text="4")  # typed, as a grader does
        browser.js("document.querySelector('#C1__written').blur()")  # leaving the box saves it (its change event)
        if saved(k, SAVE_WAIT_S):
            break
    else:
        raise AssertionError(f"the typed score was never saved in {SAVE_TRIES} tries of the grading page")

    after = wait_for(
        "the new score on the gradebook page",
        lambda: (r := ada_row(browser, base))["written"] != before["written"] and r,
    )
    assert after["written"].startswith("4 / ") and after["to_grade"] == "0", after
    total = lambda row: float(row["score"].split(" / ")[0])  # noqa: E731
    assert total(after) == total(before) + 4, (before, after)
    row = exported(k)
    assert row["written"] == "4.0" and row["written_to_grade"] == "0", row
