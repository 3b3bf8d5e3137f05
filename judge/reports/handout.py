"""What a batch hands out, one file per student: feedback (``--feedback DIR``) and Gradescope's
``results.json`` (``--format gradescope --out DIR``).

Each student's file holds what ``judge grade`` shows that student, as the batch recorded it
(``judge.grade.batch``: the text report, and the Gradescope report): the verdict, the score by
group, the failing examples, the hint. Those reports never hold a hidden case's data, so neither
do these files. A row the judge could not grade (no file, a refused file) gets its verdict and
message.

A student's files are named after the row (``file_name``): ``alice.txt`` and
``alice/results.json`` for ``alice.py`` or the folder ``alice/``. Every file is written
atomically; a link where a student's folder of results would go is refused, never followed.
Other files in ``DIR`` are left alone.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path

from judge import atomic
from judge.errors import JudgeError
from judge.grade import scoring
from judge.grade.verdicts import Verdict

#: A name longer than this (in bytes) is cut, and a digest of the whole keeps it unique (as is
#: any name that could leave the folder, which a row's escaped name never is).
MAX_NAME_BYTES = 200


def file_name(record: dict) -> str:
    """The row's name as a file name: ``alice``; ``alice.py`` and ``alice`` when a file and a
    folder of the class share a name (the rows ``alice.py`` and ``alice/``)."""
    name = record["submission"].rstrip("/")
    if name in ("", ".", "..") or "/" in name or "\0" in name \
            or len(name.encode("utf-8", "surrogateescape")) > MAX_NAME_BYTES:
        digest = hashlib.sha256(name.encode("utf-8", "surrogateescape")).hexdigest()[:16]
        name = name[:MAX_NAME_BYTES // 4].replace("/", "_").replace("\0", "_").lstrip(".") \
            + "-" + digest
    return name


def feedback_text(problem: str, record: dict) -> str:
    """What ``judge grade`` shows the student (or, for a row never graded, why)."""
    if record.get("feedback"):
        return record["feedback"]
    verdict = Verdict(record["verdict"])
    return (f"{problem}: {record['submission']}\n\n"
            f"{verdict.value} ({verdict.title}) [{record['reason']}]: {record['message']}\n"
            f"score: {scoring.number(record.get('score') or 0)}/"
            f"{scoring.number(record.get('max_score') or 0)}\n")


def gradescope_report(record: dict) -> dict:
    """``judge grade --format gradescope``'s report (or, for a row never graded, a score of 0
    and why)."""
    if record.get("gradescope"):
        return record["gradescope"]
    verdict = Verdict(record["verdict"])
    return {"score": 0.0,
            "output": f"{verdict.value} ({verdict.title}) [{record['reason']}]: "
                      f"{record['message']}\nScore: 0/"
                      f"{scoring.number(record.get('max_score') or 0)}",
            "visibility": "visible", "stdout_visibility": "hidden", "tests": [],
            "extra_data": {"source_gate": record.get("source_gate", True)}}


def _folder(path: Path, student: bool = False) -> Path:
    """``path``, made if need be; a student's folder must be a folder itself, not a link."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        pass
    except OSError as exc:
        raise JudgeError(f"{path}: cannot make the folder ({exc.strerror or exc})") from None
    mode = (os.lstat if student else os.stat)(path).st_mode
    if not stat.S_ISDIR(mode):
        raise JudgeError(f"{path}: is not a folder; a link or a file there is never written "
                         f"through")
    return path


def write_feedback(folder: Path, problem: str, records: list[dict]) -> list[Path]:
    """``folder/<student>.txt`` per record; the paths written."""
    folder = _folder(Path(folder))
    written = []
    for record in records:
        path = folder / f"{file_name(record)}.txt"
        atomic.write_text(path, feedback_text(problem, record))
        written.append(path)
    return written


def write_gradescope(folder: Path, records: list[dict]) -> list[Path]:
    """``folder/<student>/results.json`` per record; the paths written."""
    folder = _folder(Path(folder))
    written = []
    for record in records:
        path = _folder(folder / file_name(record), student=True) / "results.json"
        atomic.write_text(path, json.dumps(gradescope_report(record), indent=2) + "\n")
        written.append(path)
    return written
