"""What measuring a recurrence's reach (``judge.worker.reach``) adds to summarizing a program,
side by side in one run: for each accepted ema_scan submission, its program traced with T as a
symbol (d = 4), then summarized without the measurement and with it, CPU seconds of this
process (the median of ``--runs``), and their ratio: at decay 0.9 (the measuring program
compiled) and at decay 0.5 (the same program with another literal, so its compilation is
reused).

    python benchmarks/recurrence_reach.py [--runs 3] [SUBMISSION ...]

The measurement runs once per program a worker traces (once per key: per distinct d and
decay for ema_scan), not once per case.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _program(path: Path, decay: float):
    import jax
    import jax.numpy as jnp

    from judge.worker import symbolic

    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    made = symbolic.dims(jax, {"T": [1, 64]})
    with symbolic.scan_length_shim(str(path)):
        return jax.make_jaxpr(lambda x: module.ema(x, decay))(jax.ShapeDtypeStruct((made["T"], 4), jnp.float32))


def _cpu(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn()
        times.append(time.process_time() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("submissions", nargs="*", type=Path)
    args = parser.parse_args()
    from judge.worker import program

    paths = args.submissions or sorted((ROOT / "submissions" / "ema_scan" / "accepted").glob("*.py"))
    print(f"{'submission':32} {'decay':>5} {'without s':>10} {'with s':>10} {'ratio':>7}  reach")
    for path in paths:
        for decay in (0.9, 0.5):
            closed = _program(path, decay)
            plain = _cpu(lambda: program.summarize(closed, symbolic=True), args.runs)
            found = {}
            measured = _cpu(lambda: found.update(program.summarize(closed, symbolic=True, symbols={"T": [1, 64]},
                                                                   outputs=1)), args.runs)
            reach = [lp.get("reach") for lp in found["loops"]]
            print(f"{path.stem:32} {decay:5} {plain:10.3f} {measured:10.3f} {measured / max(plain, 1e-9):7.1f}  "
                  f"{[(r['reached'], r['outputs']) if r else None for r in reach]}")


if __name__ == "__main__":
    main()
