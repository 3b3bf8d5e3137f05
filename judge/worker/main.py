"""The worker: imports one submission and runs it on case inputs, reporting plain data.

This is the only code that shares a process with a submission. It decides nothing: every
outcome, an exception included, becomes data on the result channel (see ``protocol``), and the
judge process turns that data into verdicts. It never sees expected outputs.

This module is the entry point (``main``): it opens the result channel (``channel``), loads the
submission with its output captured (``Capture``, ``load_submission``) and hands each case to
the case runner (``case_runner``), checking the instruments around every case.

Run as ``python -I -c BOOTSTRAP --result-fd N`` by ``judge.run.supervisor``; the request is on stdin.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import tempfile
import time

from . import protocol
from .case_runner import CaseRunner
from .traced_once import TraceOnce
from .output_data import describe_error
from .channel import open_channel


class Capture:
    """Redirects file descriptors 1 and 2 to private temporary files for the duration of each
    block (``with capture:``), then keeps at most ``limit`` bytes of each as text.

    The two files and the copies of descriptors 1 and 2 to restore are made once, when the
    capture is made (before the submission is imported), and each block starts with both files
    empty: a dozen system calls a block instead of about thirty (two new files each time).
    """

    def __init__(self, limit: int):
        self.limit = limit
        self.stdout = self.stderr = ""
        self._files = (tempfile.TemporaryFile(buffering=0), tempfile.TemporaryFile(buffering=0))
        self._fds = tuple(f.fileno() for f in self._files)
        self._saved = (os.dup(1), os.dup(2))

    def __enter__(self):
        _flush_std()
        for fd in self._fds:
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)  # the offset descriptors 1 and 2 will write at
        os.dup2(self._fds[0], 1)
        os.dup2(self._fds[1], 2)
        return self

    def __exit__(self, *exc):
        _flush_std()
        os.dup2(self._saved[0], 1)
        os.dup2(self._saved[1], 2)
        self.stdout, self.stderr = (self._read(fd) for fd in self._fds)
        return False

    def _read(self, fd: int) -> str:
        size = os.fstat(fd).st_size
        text = os.pread(fd, self.limit, 0).decode("utf-8", errors="replace")
        if size > self.limit:
            text += f"\n[... {size - self.limit} more bytes not kept]"
        return text


def _flush_std() -> None:
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except Exception:
            pass


def load_submission(path: str, entry_point: str):
    """Import the submission file; return (entry function, None) or (None, ERROR)."""
    try:
        spec = importlib.util.spec_from_file_location("submission", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["submission"] = module
        spec.loader.exec_module(module)
    except SyntaxError as exc:
        return None, describe_error(exc, "syntax_error", path)
    except SystemExit as exc:
        return None, describe_error(exc, "exit", path)
    except BaseException as exc:  # noqa: BLE001 - any failure of untrusted code is data
        return None, describe_error(exc, "import_error", path)
    entry = getattr(module, entry_point, None)
    if not callable(entry):
        found = "is not callable" if entry is not None else "is not defined"
        return None, {"kind": "missing_entry_point", "type": "AttributeError",
                      "message": f"the entry point {entry_point!r} {found} in the submission",
                      "line": None, "source": None}
    return entry, None


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 2 or argv[0] != "--result-fd":
        sys.stderr.write("usage: worker --result-fd N  (request on stdin)\n")
        os._exit(2)
    # Private (fd 0 becomes /dev/null) and buffered: unbuffered, a line was read a byte per
    # system call, 12,000 calls for a request of 44 cases (each slow under gVisor). A buffer
    # holds only what the judge has sent, and it sends each part only when it is due.
    requests = os.fdopen(os.dup(0), "rb", buffering=1 << 16)
    request = json.loads(requests.readline())
    send = open_channel(int(argv[1]), request.pop("nonce", None))
    devnull = os.open(os.devnull, os.O_RDONLY)
    os.dup2(devnull, 0)
    os.close(devnull)

    from . import limits

    limits.apply(request.pop("rlimits", None))  # before JAX, so they cover everything that follows
    memory = request.pop("memory_bytes", None)  # set once JAX is up (``limits.limit_memory``)

    import warnings

    # The judge's compilation cache is read-only here; a missed entry is simply compiled.
    warnings.filterwarnings("ignore", message="Error writing persistent compilation cache entry")
    import jax  # imported before the submission so the instruments come first

    import numpy

    from . import custody, instrument, lowering, program, provenance, reuse
    from .evaluate import Evaluator

    lowering.share_contexts()
    evaluator = Evaluator(jax, uses_numpy=request.get("evaluator") != "jax")
    if request.get("report_ops"):  # what missed the judge's cache, for it to compile once
        from .shared_ops import OpLog

        try:
            evaluator.ops = OpLog(jax)
        except Exception:  # noqa: BLE001 - a JAX without what it reads: nothing is reported
            evaluator.ops = None
    op_log = evaluator.ops
    folder = jax.config.jax_compilation_cache_dir
    if folder:  # operations compiled once, loaded without tracing them again (``stored_ops``)
        from .stored_ops import StoredOps

        try:
            evaluator.stored = StoredOps(jax, folder, writable=bool(request.get("store_ops")))
        except Exception:  # noqa: BLE001 - a JAX or a configuration it cannot key: none loaded
            evaluator.stored = None
    stored = evaluator.stored

    def ops_report() -> dict:
        """The operations that missed the cache, for ``done`` (a wish list the judge checks)."""
        if op_log is None:
            return {}
        try:
            return {"ops": list(op_log.report())}
        except BaseException:  # noqa: BLE001 - changed by the submission: nothing to offer
            return {"ops": []}

    marker = recorder = measures = check_flow = None
    if request.get("grad_rule"):
        import secrets

        marker = "r" + secrets.token_hex(12)  # the name scope of input markers; random per run
        recorder = instrument.install(marker)
        measures, check_flow = custody.measures(recorder, marker, provenance,
                                                bool(request["grad_rule"].get("plumbed")))
    # Everything used below, taken before the submission can replace it; the runner's own
    # references must be these very objects (see ``custody``).
    runner_class, capture, load = CaseRunner, Capture, load_submission
    expected = {"jax": jax, "np": numpy, "instrument": instrument, "summarize": program.summarize,
                "recorder": recorder, "marker": marker, "evaluator": evaluator}
    frozen_attributes, getattr_ = custody.frozen_attributes, getattr
    decode_args = protocol.decode_args
    classify, clock, end = limits.classify, time.perf_counter, os._exit
    tampered = instrument.guard(CaseRunner, TraceOnce, Capture, custody.Measures, Evaluator,
                                reuse.Reuse, reuse.Pass,
                                *([recorder.tracked] if recorder else []),
                                *([type(op_log)] if op_log is not None else []),
                                *([type(stored)] if stored is not None else []))
    # the evaluator, its op log and its stored operations are called while a program is
    # evaluated: an attribute of theirs rebound (an op log of the submission's) would run its
    # code there
    evaluator_changed = frozen_attributes(evaluator)
    op_log_changed = (frozen_attributes(op_log, keep=("misses", "size")) if op_log is not None
                      else lambda: [])
    stored_changed = frozen_attributes(stored) if stored is not None else lambda: []
    numpy_changed = custody.watched_modules(numpy)  # a replaced NumPy function sees the values
    # The address space JAX has mapped by now is the runtime's; the submission gets ``memory``
    # bytes beyond it, whatever JAX's plugins reserve on this machine.
    runtime = limits.limit_memory(memory, jax)
    send({"type": "ready", "protocol": protocol.PROTOCOL, "python": sys.version.split()[0],
          "jax": jax.__version__, "runtime_mb": runtime >> 20})

    def halt(cause: str, index, detail: str = "") -> None:
        """Stop early: a limit was hit or the instruments were tampered with (the judge decides)."""
        send({"type": "halt", "cause": cause, "index": index, "detail": detail[:300]})
        end(0)

    submission = os.path.abspath(request["submission"])
    request["submission"] = submission
    limit = int(request.get("capture_bytes", 4096))
    started = clock()
    cap = capture(limit)
    capture_changed = frozen_attributes(cap, keep=("stdout", "stderr"))
    with cap:
        entry, error = load(submission, request["entry_point"])
    if classify(error):
        halt(classify(error), None, f"{error.get('type')} while importing the submission")
    loaded = {"type": "loaded", "ok": error is None, "time_s": clock() - started,
              "stdout": cap.stdout, "stderr": cap.stderr}
    if error is not None:
        loaded["error"] = error
    send(loaded)
    if error is None:
        runner = runner_class(entry, request, recorder, marker, evaluator)
        swapped = [name for name, obj in expected.items() if getattr_(runner, name, obj) is not obj]
        if swapped:  # replaced while the submission was imported
            halt("instrument_tampered", None, ", ".join(f"CaseRunner.{n}" for n in swapped))
        if measures is not None:
            runner.provenance = measures
        runner_changed = frozen_attributes(runner, keep=("clearing_helps",))
        del recorder, marker

        def all_cases():
            yield from request["cases"]
            if request.get("more_cases"):  # the hidden cases, sent once the public ones are reported
                line = requests.readline()
                yield from (json.loads(line)["cases"] if line else [])

        def changed() -> list[str]:
            return tampered() + runner_changed() + numpy_changed() + evaluator_changed() + \
                op_log_changed() + stored_changed() + capture_changed()

        def ask(case: dict, args: dict) -> None:
            """Before the first ``decide`` case of a key is evaluated: send the program it
            traced, and keep the judge's answer (a line it cannot read is "evaluate")."""
            question = runner.question(args, case["symbolic"])
            if question is None:
                return
            if changed():
                halt("instrument_tampered", case["index"], ", ".join(changed()))
            send({"type": "program", "index": case["index"], **question})
            try:
                reply = json.loads(requests.readline() or "null")
            except ValueError:
                reply = None
            runner.answered(args, case["symbolic"], not (
                isinstance(reply, dict) and reply.get("index") == case["index"]
                and reply.get("evaluate") is False))

        for case in all_cases():
            if changed():
                halt("instrument_tampered", case["index"], ", ".join(changed()))
            started = clock()
            with cap:
                if case.get("abstract") is not None:  # trace only, at the judge's shapes
                    result = runner.abstract(decode_args(case["args"]), case["abstract"],
                                             case.get("symbols"))
                else:
                    args = decode_args(case["args"])
                    decide = bool(case.get("decide")) and case.get("symbolic") is not None
                    if decide:
                        ask(case, args)
                    result = runner.run(args, decode_args(case.get("probe_args") or {}),
                                        float(case.get("factor") or 2.0), case.get("symbolic"),
                                        decide)
            elapsed = clock() - started
            if case.get("shorten") and case.get("abstract") is None and not result.get("error") \
                    and not result.get("skipped"):  # the judge's measurement, not the case's time
                result["shortened"] = runner.shortened(args, decode_args(case.get("probe_args") or {}),
                                                       case.get("symbolic"), result.get("output"),
                                                       request.get("shorten_tolerance"),
                                                       earlier=case.get("shorten") == "earlier")
            if changed():
                halt("instrument_tampered", case["index"], ", ".join(changed()))
            unmeasured = check_flow(result.get("evidence")) if check_flow else None
            if unmeasured:
                halt("instrument_tampered", case["index"], unmeasured)
            if classify(result.get("error")):
                halt(classify(result["error"]), case["index"], str(result["error"].get("type")))
            send({"type": "case", "index": case["index"], "time_s": elapsed,
                          "stdout": cap.stdout, "stderr": cap.stderr, **result})
    send({"type": "done", **ops_report()})
    # Skip interpreter shutdown: atexit handlers belong to the submission, not to the result.
    os._exit(0)


if __name__ == "__main__":
    main()
