"""The rules a problem states, checked on the traced program; one module per rule.

Every module in this package that defines ``ID`` is a rule (its contract is in ``base``), found
here and nowhere else: adding a rule is adding one module (and its keys to the spec schema).
This package also says which traces the worker must make (``needs_program``,
``symbolic_trace``: the program the rules decide on, with the spec's ``symbolic_dims`` as
symbols; ``abstract_traces`` and ``case_traces``: concrete traces a spec or a rule still asks
for) and runs the rules over them (``check_symbolic``, ``check_case``, ``check_abstract``); the
grading module turns a breach into a verdict.
"""

from __future__ import annotations

import importlib
import pkgutil
from dataclasses import replace

from judge.problem.model import bind_dims, dim_ranges, shapes_for, tree_extents, tree_shapes
from judge.rules import carriers, primitive_names
from judge.rules.base import AbstractTrace, Breach, TraceEvidence

_HELPERS = {"base", "expression", "primitive_names", "polynomial", "carriers", "last_trip"}
#: what the registry itself may report, beside its rules' reasons
REASONS = ("opaque_computation", "function_primitive")


def _discover() -> dict:
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if info.name in _HELPERS:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        if hasattr(module, "ID"):
            found[module.ID] = module
    return found


#: rule id -> its module
RULES = _discover()


def describe(rule: dict) -> str:
    return RULES[rule["id"]].describe(rule)


def validate(rules, problem) -> list[tuple[int, str, str]]:
    """``(rule index, key, message)`` for every rule whose keys make no sense for ``problem``."""
    return [(i, key, message) for i, rule in enumerate(rules)
            for key, message in RULES[rule["id"]].validate(rule, problem)]


def needs_program(rules) -> bool:
    """Does any rule read the summary of the program traced without running it?"""
    return any("program" in RULES[r["id"]].EVIDENCE for r in rules)


def needs_reach(rules) -> bool:
    """Does any rule read how much of the output each recurrent loop reaches (the program
    summary's ``reach``, measured in the worker only when asked: it runs the program again)? A
    rule module says so with ``reads_reach(rule)``."""
    return any(getattr(RULES[r["id"]], "reads_reach", lambda rule: False)(r) for r in rules)


def abstract_traces(problem) -> list[tuple[str | int, AbstractTrace]]:
    """The programs to trace without running: ``("probe", trace)`` for each of the spec's
    probe shapes, and ``(rule index, trace)`` for the traces a rule asks for itself. None when
    no rule reads a program."""
    if not needs_program(problem.rules):
        return []
    found: list = []
    for shape in problem.probe_shapes:
        found.append(("probe", AbstractTrace(name=f"probe shape {shape.name}", shapes=shape.shapes,
                                             values=shape.values, dtypes=shape.dtypes)))
    for i, rule in enumerate(problem.rules):
        more = getattr(RULES[rule["id"]], "traces", None)
        if more is not None:
            found.extend((i, t) for t in more(rule, problem))
    return found


def symbolic_trace(problem, inputs: dict) -> AbstractTrace | None:
    """The program the rules decide on for a case with these inputs: traced without running,
    the spec's ``symbolic_dims`` as symbols over their ranges, the other dims and the static
    values the case's own (so a submission that branches on them is judged on the branch its
    cases take); a tree's leaves with their dims too (``trees``). None when no rule reads a
    program or no dim is symbolic."""
    if not needs_program(problem.rules) or not problem.symbolic_dims:
        return None
    params = problem.parameters
    shapes = {p.name: tuple(inputs[p.name].shape) for p in params if p.kind == "array"}
    trees = {p.name: tree_shapes(inputs[p.name]) for p in params if p.kind == "tree" and p.traced}
    dims = bind_dims(params, shapes, trees)
    ranges = dim_ranges(params)
    symbols = {d: ranges[d] for d in problem.symbolic_dims}
    named = {**dims, **{d: d for d in symbols}}
    symbolic = shapes_for(params, named, shapes)
    concrete = sorted((k, v) for k, v in dims.items() if k not in symbols)
    name = (f"traced with {', '.join(symbols)} symbolic"
            + (f" ({', '.join(f'{k} = {v}' for k, v in concrete)})" if concrete else ""))
    dtypes = {p.name: str(inputs[p.name].dtype) for p in params if p.traced and p.kind == "array"}
    # a tree's leaves take the dims' symbols (or the extents the arrays bind) where their
    # spec names them, each leaf's dtype nested alike
    dtypes.update({name: _leaf_dtypes(inputs[name]) for name in trees})
    return AbstractTrace(name=name, shapes=symbolic,
                         values={p.name: inputs[p.name] for p in params if not p.traced},
                         dtypes=dtypes, symbols=symbols,
                         trees={p.name: tree_extents(p, trees[p.name], named)
                                for p in params if p.name in trees})


def _leaf_dtypes(tree):
    if not isinstance(tree, dict):
        return str(tree.dtype)
    return {key: _leaf_dtypes(item) for key, item in tree.items()}


def trace_key(trace: AbstractTrace) -> str:
    """What tells two traces apart: their shapes (a tree's leaves' too), static values and
    dtypes (one program is traced per key)."""
    key = (sorted(trace.shapes.items()), sorted((k, repr(v)) for k, v in trace.values.items()),
           sorted(trace.dtypes.items()))
    return repr(key + (sorted(trace.trees.items()),) if trace.trees else key)


def check_symbolic(problem, trace: TraceEvidence) -> Breach | None:
    """The first rule the program traced with symbolic dims breaks: code the rules cannot
    read, a primitive carrying a function the problem does not admit, then each rule in the
    spec's order."""
    program = trace.program
    if program is not None and program.shapes_omitted:
        return Breach("opaque_computation", f"{trace.label}: the traced program has more distinct "
                                            f"shapes than the judge can list; this problem's rules "
                                            f"must see every value")
    breach = carriers.check(problem, trace)
    return breach or check_case(problem, trace)


def case_traces(problem, inputs: dict, drawn: dict | None = None,
                ran: bool = False) -> list[tuple[int, AbstractTrace]]:
    """``(rule index, trace)`` for the programs rules want traced beside a case with these
    inputs (``case_traces`` of a rule module). ``drawn``: one dict per grade, where each rule
    keeps what it drew at random for the cases before (by rule index). ``ran``: the case's
    worker reports the program the case runs, traced with the symbolic dims
    (``symbolic_trace``), which the rules then read as the case's own."""
    drawn = {} if drawn is None else drawn
    if not needs_program(problem.rules):
        return []
    shapes = {p.name: tuple(inputs[p.name].shape) for p in problem.parameters if p.kind == "array"}
    # a tree (traced) goes with the static values: the worker traces it at its leaves' shapes
    values = {p.name: inputs[p.name] for p in problem.parameters if not p.traced or p.kind == "tree"}
    dtypes = {p.name: str(inputs[p.name].dtype) for p in problem.parameters
              if p.traced and p.kind == "array"}
    found = []
    for i, rule in enumerate(problem.rules):
        more = getattr(RULES[rule["id"]], "case_traces", None)
        if more is not None:  # a tree traced from its leaves' extents: their dtypes, nested alike
            found.extend((i, replace(t, dtypes={**dtypes, **{n: _leaf_dtypes(inputs[n]) for n in t.trees}}))
                         for t in more(rule, problem, shapes, values, drawn.setdefault(i, {}), ran))
    return found


def opaque(problem, trace: TraceEvidence) -> Breach | None:
    """A program the rules must read that calls code they cannot read (``jax.export``, foreign
    functions), or whose summary had to leave primitives out: nothing can be said of what
    happens there, so it is refused."""
    if trace.program is None or not needs_program(problem.rules):
        return None
    if trace.program.omitted:  # more distinct primitives than a summary holds: some unseen
        return Breach("opaque_computation", f"{trace.label}: the traced program uses more distinct "
                                            f"primitives than the judge can list; this problem's "
                                            f"rules must see the whole computation")
    found = sorted(n for n in primitive_names.OPAQUE if trace.program.primitives.get(n))
    if not found:
        return None
    return Breach("opaque_computation", f"{trace.label}: the traced program calls {', '.join(found)}, "
                                        f"code the judge cannot read; this problem's rules must see "
                                        f"the whole computation as JAX operations")


def for_reference(problem, cases):
    """``problem`` holding ``cases``, as author tools run its reference: without the rules that
    instrument the worker to measure a submission (``custom_vjp`` evidence), but with those that
    read the traced program, since they decide how values are computed (one trace, without
    disable_jit): expected outputs must be computed the way submissions' outputs are."""
    kept = tuple(r for r in problem.rules if "custom_vjp" not in RULES[r["id"]].EVIDENCE)
    return replace(problem, cases=tuple(cases), rules=kept)


def check_case(problem, trace: TraceEvidence) -> Breach | None:
    """The first rule, in the spec's order, that one traced program breaks (after ``opaque``)."""
    breach = opaque(problem, trace)
    if breach:
        return breach
    for i, rule in enumerate(problem.rules):
        related = tuple(trace.related_by_rule.get(i, ()))
        # the same evidence where the rule's own traces are the ones it holds already (none)
        mine = trace if not related and not trace.related else replace(trace, related=related)
        breach = RULES[rule["id"]].check(rule, mine, problem)
        if breach:
            return breach
    return None


def check_abstract(problem, traces: list[tuple[str | int, TraceEvidence]]) -> Breach | None:
    """The first breach over the abstract traces: every rule on each probe shape, then each
    rule across the traces it asked for."""
    for _, trace in traces:
        breach = check_case(problem, trace)
        if breach:
            return breach
    for i, rule in enumerate(problem.rules):
        across = getattr(RULES[rule["id"]], "check_traces", None)
        if across is not None:
            breach = across(rule, [t for origin, t in traces if origin == i], problem)
            if breach:
                return breach
    return None


__all__ = ["RULES", "Breach", "TraceEvidence", "AbstractTrace", "describe", "validate",
           "needs_program", "needs_reach", "abstract_traces", "case_traces", "check_case", "check_abstract",
           "symbolic_trace", "trace_key", "check_symbolic"]
