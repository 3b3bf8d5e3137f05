"""`judge check --watch`: check again whenever a problem's files change.

After the first check, the files a problem's check reads are polled (their modification time
and size, about every ``INTERVAL`` seconds; no dependency beyond the standard library): the
spec, the reference, the generator and everything under ``submissions/<id>/`` (a submission
added or removed counts too). When one changes, that problem, and only that one, is checked
again, and its report printed. With the result cache (``judge.grade.result_cache``) a re-check
runs only what the edit touched: an edited expected output starts no worker, an edited
submission starts that submission's. Ctrl-C ends it.
"""

from __future__ import annotations

import time
from pathlib import Path

#: Seconds between two looks at the files.
INTERVAL = 0.5
#: Seconds the files must stay unchanged before a check starts (an editor's save in steps).
SETTLE = 0.2


def reference_of(spec_path: Path) -> Path | None:
    """The reference the spec names (``reference:``), or None when the spec does not load."""
    from judge.problem import spec

    try:
        return spec.load(spec_path).reference
    except Exception:  # noqa: BLE001 - a spec that does not load is reported by the check itself
        return None


def files(spec_path: Path, reference: Path | None = None) -> list[Path]:
    """The files whose change calls for checking the problem of ``spec_path`` again."""
    spec_path = Path(spec_path).resolve()
    root = spec_path.parent.parent
    found = [spec_path, root / "reference" / f"{spec_path.stem}.py",
             root / "generators" / f"{spec_path.stem}.py"]
    if reference is not None and reference not in found:
        found.append(reference)
    folder = root / "submissions" / spec_path.stem
    if folder.is_dir():
        found += sorted(p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    return found


def snapshot(paths) -> dict:
    """Path -> (mtime in ns, size), or None for a file that is not there."""
    out = {}
    for path in paths:
        try:
            st = path.stat()
            out[path] = (st.st_mtime_ns, st.st_size)
        except OSError:
            out[path] = None
    return out


def changed(before: dict, after: dict) -> list[Path]:
    return sorted(p for p in set(before) | set(after) if before.get(p) != after.get(p))


def watch(spec_paths, check, say=print, interval: float = INTERVAL, settle: float = SETTLE,
          rounds: int | None = None) -> None:
    """Poll the files of every problem in ``spec_paths`` and call ``check(spec_path)`` for each
    problem whose files changed. ``say(text)`` tells the user what happens; ``rounds`` (for
    tests) stops after that many looks. Returns on KeyboardInterrupt too (Ctrl-C)."""
    spec_paths = list(spec_paths)
    references = {p: reference_of(p) for p in spec_paths}  # read again after each check

    def state(spec_path):
        return snapshot(files(spec_path, references[spec_path]))

    states = {p: state(p) for p in spec_paths}
    say(f"watching {len(spec_paths)} problem{'s' if len(spec_paths) != 1 else ''} for changes "
        f"(Ctrl-C to stop)")
    done = 0
    try:
        while rounds is None or done < rounds:
            time.sleep(interval)
            done += 1
            for spec_path in spec_paths:
                now = state(spec_path)
                moved = changed(states[spec_path], now)
                if not moved:
                    continue
                while True:  # let a save in several steps finish
                    time.sleep(settle)
                    later = state(spec_path)
                    if later == now:
                        break
                    moved = sorted(set(moved) | set(changed(now, later)))
                    now = later
                shown = ", ".join(_shown(p) for p in moved[:3]) + (
                    f" and {len(moved) - 3} more" if len(moved) > 3 else "")
                say(f"\n-- {time.strftime('%H:%M:%S')}: {shown} changed; checking "
                    f"{Path(spec_path).stem} again")
                check(spec_path)
                # an edit made during the check differs from ``now``: it is checked next round
                references[spec_path] = reference_of(spec_path)
                states[spec_path] = {**now, **{p: v for p, v in state(spec_path).items()
                                               if p not in now}}
    except KeyboardInterrupt:
        say("\nstopped watching")


def _shown(path: Path) -> str:
    from judge.author.check import shown

    return shown(path)
