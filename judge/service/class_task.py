"""One submission of a class graded by the service's graders (``judge batch --queue``,
``judge.service.class_queue``): what the batch's task holds and how a grader checks it
(``job``), what a grader answers (``answer``), and how the batch checks that answer
(``fields``). Both are plain JSON: anyone who reaches
Redis can write a task, so every field is checked before anything is graded."""

from __future__ import annotations

import json
import re

from judge.errors import JudgeError

#: The service queue's mode of a class's submission.
MODE = "batch"
BATCH_ID = re.compile(r"[0-9a-f]{24}")
#: The longest a label may be (the path of a file in a student's folder).
MAX_LABEL = 4096


def alive_key(batch: str) -> str:
    return f"class:{batch}"


def job(inputs) -> dict | None:
    """The batch's part of a task (``inputs``), checked field by field: anyone who reaches Redis
    can write a task. None when it is not one."""
    try:
        data = json.loads(inputs) if isinstance(inputs, str) else None
    except ValueError:
        return None
    if not isinstance(data, dict) or set(data) != {"batch", "name", "label", "expect"}:
        return None
    name, label, expect = data["name"], data["label"], data["expect"]
    if not (isinstance(data["batch"], str) and BATCH_ID.fullmatch(data["batch"])):
        return None
    if not (isinstance(name, str) and 0 < len(name) <= 255 and "/" not in name
            and "\0" not in name and name not in (".", "..")):
        return None
    if not (isinstance(label, str) and len(label) <= MAX_LABEL and "\0" not in label):
        return None
    if not (isinstance(expect, dict) and all(isinstance(k, str) and
                                             isinstance(v, (str, bool, type(None)))
                                             for k, v in expect.items())):
        return None
    return data


def answer(grader, problem_id: str, source: str, task: dict) -> dict:
    """What a grader stores for one submission of a class (``task``: ``job``'s): its grade, or
    ``{"refused": ...}`` when its problem package is not the batch's (nothing is graded)."""
    from judge.grade import intake
    from judge.reports import gradescope, json_report, text

    try:
        problem = grader.problem(problem_id)
    except JudgeError as exc:
        return {"refused": None, "why": str(exc)[:500], "grader": grader.name}
    parts = grader.basis_parts(problem)
    if parts != task["expect"]:
        return {"refused": parts, "grader": grader.name}
    data = source.encode("utf-8", "surrogateescape") if isinstance(source, str) else b""
    submission = intake.Submission(name=task["name"], data=data, label=task["label"])
    if len(data) > intake.MAX_BYTES:
        return {"refused": parts, "why": f"a source of more than {intake.MAX_BYTES} bytes",
                "grader": grader.name}
    result = grader.result(problem_id, submission)
    return {"verdict": result.verdict.value, "report": json_report.render(result),
            "feedback": text.render(result), "gradescope": gradescope.to_dict(result),
            "basis": parts, "grader": grader.name}


def fields(stored, problem_id: str) -> dict:
    """The graded fields of a record, from a grader's answer (``answer``), every part checked;
    ValueError saying why it is not one."""
    from judge.grade.verdicts import Verdict
    from judge.reports import batch_report

    if not isinstance(stored, dict):
        raise ValueError("not an object")
    verdict, report, feedback, results = (stored.get(k) for k in
                                          ("verdict", "report", "feedback", "gradescope"))
    if verdict not in {v.value for v in Verdict}:
        raise ValueError("no verdict of the judge")
    if not (isinstance(report, str) and isinstance(feedback, str) and isinstance(results, dict)):
        raise ValueError("no report, feedback or results.json")
    data = json.loads(report)
    if not isinstance(data, dict) or data.get("verdict") != verdict \
            or data.get("problem") != problem_id:
        raise ValueError("a report of another verdict or problem")
    try:
        fields = batch_report.from_report(data)
    except (KeyError, TypeError, AttributeError) as exc:
        raise ValueError(f"a report without {exc}") from None
    for key in ("reason", "message"):
        if not isinstance(fields[key], str):
            raise ValueError(f"a report whose {key} is not text")
    for key in ("score", "max_score"):
        if fields[key] is not None and (isinstance(fields[key], bool)
                                        or not isinstance(fields[key], (int, float))):
            raise ValueError(f"a report whose {key} is not a number")
    return {**fields, "feedback": feedback, "gradescope": results}
