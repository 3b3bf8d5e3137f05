"""Primitives that carry a function of the submission, refused unless admitted by name.

``lax.reduce`` and ``lax.reduce_window`` run a reducer the submission wrote, once per pair of
elements; ``custom_linear_solve`` runs its solver and matvec; a sort of several operands
permutes them all by the first. The rules count such a body once, whatever it does each time
it runs (a per-example gradient inside a reducer is one equation), so a program the rules
decide on may use only the carriers this list admits and those the spec names in
``function_primitives``. The worker reports every primitive whose equation holds a jaxpr
(``judge.worker.program``), so a carrier added in a later JAX is refused too; the names below
are refused even if the worker's list left one out.
"""

from __future__ import annotations

from judge.rules import primitive_names
from judge.rules.base import Breach, TraceEvidence

#: carriers every problem admits (the calls, the custom-derivative rules, remat, cond) and the
#: loops, admitted unless a ``forbidden_primitives`` rule names them
DEFAULT = frozenset(n for c in ("jit", "custom_vjp_call", "custom_jvp_call", "checkpoint", "cond")
                    for n in primitive_names.spellings(c)) | {
    "closed_call", "core_call", "named_call", "composite",
    # a scatter's combiner is the primitive's own (add, mul, min, max), not the submission's
    "scatter-add", "scatter_add", "scatter-mul", "scatter_mul", "scatter-min", "scatter_min",
    "scatter-max", "scatter_max"}
LOOPS = frozenset(n for c in ("scan", "while") for n in primitive_names.spellings(c))
#: carriers JAX 0.10 has, refused unless admitted, even when the worker does not list them
KNOWN = ("reduce", "reduce_window", "custom_linear_solve", "linear_call", "custom_transpose_call",
         "run_state", "shard_map", "xla_pmap", "pallas_call")


def admitted(problem) -> frozenset:
    forbidden = {n for r in problem.rules if r["id"] == "forbidden_primitives"
                 for c in r["primitives"] for n in primitive_names.spellings(c)}
    named = {n for c in problem.function_primitives for n in primitive_names.spellings(c)}
    return DEFAULT | (LOOPS - forbidden) | named


def check(problem, trace: TraceEvidence) -> Breach | None:
    program = trace.program
    if program is None:
        return None
    used = set(program.carriers) | {n for n in KNOWN if program.primitives.get(n)}
    forbidden = {n for r in problem.rules if r["id"] == "forbidden_primitives"
                 for c in r["primitives"] for n in primitive_names.spellings(c)}
    refused = sorted(used - admitted(problem) - forbidden)  # those its own rule reports
    if not refused:
        return None
    return Breach("function_primitive",
                  f"{trace.label}: the traced program uses {', '.join(refused)}, a primitive that "
                  f"runs a function of yours the rules count once however often it runs; this "
                  f"problem does not admit it (a spec admits one by name in function_primitives)")
