"""The worker's case runner: ``CaseRunner`` traces and evaluates the submission's entry function
on one case (its output, jaxpr, custom_vjp evidence and derivative probes, all as plain data,
``output_data``). Used by ``main``, in the process the submission shares.

A case sent with ``symbolic`` (``protocol``) is traced once per key and run from that one
program (``traced_once``, whose ``TraceOnce`` this runner is): the submission's Python never
runs at such a case's concrete shapes. For a case sent with ``decide``, ``question`` gives the
program its key traced, which ``main`` sends the judge before anything of it is evaluated, and
``answered`` keeps the judge's answer: a key the judge answered not to evaluate reports its
``decide`` cases ``skipped`` (their output's form at their dims, nothing evaluated).
"""

from __future__ import annotations

import contextlib

from . import output_data, protocol, symbolic, traced_once
from .output_data import describe_error


class CaseRunner(traced_once.TraceOnce):
    """Traces and evaluates one entry function on one case."""

    def __init__(self, entry, request: dict, recorder=None, marker: str = "", evaluator=None):
        import jax
        import numpy as np

        from . import instrument, program, provenance

        self.jax, self.np, self.instrument, self.provenance = jax, np, instrument, provenance
        self.summarize = program.summarize
        if evaluator is None:
            from .evaluate import Evaluator

            evaluator = Evaluator(jax, uses_numpy=request.get("evaluator") != "jax")
        self.evaluator = evaluator  # evaluates each traced program (NumPy where exact, else JAX)
        self.structure = bool(request.get("structure"))  # also report each program's summary
        # and, in it, how much of the output each recurrent loop reaches (``reach``): costly,
        # so only where a rule reads it
        self.reach = bool(request.get("reach"))
        self.entry = entry
        self.parameters = request["parameters"]
        self.grad_rule = request.get("grad_rule")
        self.recorder, self.marker = recorder, marker  # the instrumented custom_vjp, if any
        self.compiled = bool(request.get("compiled"))  # evaluate under jax.jit instead of op by op
        self.probes = request.get("probes")  # {"wrt": "x", "names": ["vjp", "jvp"]} or None
        #: the derivatives the judge takes, traced into every program the rules read (so a
        #: custom rule's backward or forward-mode code is bound by the rules too): the tracing
        #: worker is told them, a case's worker has its probes
        self.derivative = request.get("derivative") or (self.probes if self.structure else None)
        self.traced = [p["name"] for p in self.parameters if p["traced"]]
        self.submission = request["submission"]
        self.clearing_helps: bool | None = None  # unknown until a cache-cleared retry is tried
        #: the programs traced with symbolic dims, by key (``Traced``, or the exception it raised)
        self.traced_once: dict = {}
        #: the judge's answers by key, for ``decide`` cases: evaluate them (True) or not (False)
        self.answers: dict = {}
        #: ``"moved"``: a case's output moved with the loop one trip short (``shortened``);
        #: ``"made"``: the programs that measure it, by program and inputs' types
        self.last_trip: dict = {}

    def _split(self, value, leaves: list, depth: int = 0):
        """Output structure with arrays replaced by slots into ``leaves`` (``output_data.split``)."""
        return output_data.split(self.jax, self.np, value, leaves, depth)

    def _fill(self, skeleton, values):
        """The skeleton from ``_split`` with each slot's array encoded (``output_data.fill``)."""
        return output_data.fill(self.np, skeleton, values)

    def _bind(self, args: dict, traced_values) -> dict:
        values = dict(args)
        values.update(zip(self.traced, traced_values))
        return values

    def _call(self, values: dict):
        return self.entry(*[values[p["name"]] for p in self.parameters])

    def program(self, args: dict, shapes: dict | None = None, symbols: dict | None = None) -> dict:
        """The summary of the entry's program traced without running it, and without
        ``disable_jit`` (so scans, loops and jits stay what they are), at the case's shapes or
        at ``shapes`` (name -> {"shape", "dtype"}) for the traced parameters. With ``symbols``
        (dim name -> [low, high]), an extent that names one is that symbolic dim (the corners
        of ``judge check`` and of a hidden refusal's explanation trace this way)."""
        jax = self.jax
        made = symbolic.dims(jax, symbols) if symbols else {}
        wanted = {name: (shapes or {}).get(name) or {} for name in self.traced}
        specs = [symbolic.struct(jax, wanted[n].get("shape"), made, args.get(n), wanted[n].get("dtype"))
                 for n in self.traced]  # at the judge's shapes, else an array's or a tree's own

        counted: dict = {}

        def forward(*values):
            leaves: list = []
            self._split(self._call(self._bind(args, values)), leaves)
            counted["outputs"] = len(leaves)
            return leaves

        def with_derivative(*values):
            out, derived = self._derived(self._bind(args, values))
            leaves: list = []
            self._split(out, leaves)
            counted["outputs"] = len(leaves)
            return leaves + jax.tree_util.tree_leaves(derived)

        with symbolic.scan_length_shim(self.submission) if made else contextlib.nullcontext():
            if not self.derivative:
                closed = jax.make_jaxpr(forward)(*specs)
            else:
                try:
                    closed = jax.make_jaxpr(with_derivative)(*specs)
                except Exception as exc:  # noqa: BLE001 - the function has no such derivative
                    # a dim read as a number or a value made concrete is the program's fault
                    # wherever it is; any other failure is the probe's to report (probe_failed)
                    if (made and symbolic.is_symbolic_error(jax, exc)) or isinstance(
                            exc, self.instrument.CONCRETIZATION_ERRORS):
                        raise
                    closed = jax.make_jaxpr(forward)(*specs)
        return self.summarize(closed, symbolic=bool(made), source=self.submission,
                              symbols=symbols if made and self.reach else None,
                              outputs=counted.get("outputs"))

    def _derived(self, values: dict, directions: dict | None = None, derivative: dict | None = None
                 ) -> tuple:
        """The output and the derivatives the judge takes (``derivative``) at ``values``: the
        cotangent and tangents all ones where only the program is wanted, or the case's own
        (``directions``: "cotangent" shaped like the output, "tangent" like the probes' ``wrt``,
        as ``probe`` takes them) where its values are."""
        jax = self.jax
        derivative = derivative or self.derivative
        wrt = derivative["wrt"]
        names = [wrt] if isinstance(wrt, str) else list(wrt)

        def of_wrt(*ws):
            return self._call({**values, **dict(zip(names, ws))})

        def ones(leaf):
            return jax.numpy.ones(jax.numpy.shape(leaf), jax.numpy.result_type(leaf))

        primals = [values[n] for n in names]
        out, derived = None, []
        if "vjp" in derivative["names"]:
            out, pull = jax.vjp(of_wrt, *primals)
            derived.append(pull(jax.tree_util.tree_map(ones, out) if directions is None
                                else output_data.like(out, directions["cotangent"])))
        if "jvp" in derivative["names"]:
            if directions is None:
                tangents = tuple(jax.tree_util.tree_map(ones, p) for p in primals)
            else:
                tangents = traced_once.tangents(wrt, directions["tangent"])
            pushed_out, pushed = jax.jvp(of_wrt, tuple(primals), tangents)
            out = pushed_out if out is None else out
            derived.append(pushed)
        return out, derived

    def abstract(self, args: dict, shapes: dict, symbols: dict | None = None) -> dict:
        """Only the program summary, at ``shapes`` (with ``symbols``, some extents symbolic):
        nothing runs. With ``symbols``, traced as a case's worker traces the program a case
        runs (``traced_once``: the derivatives' cotangent and tangent as inputs, not ones), so
        that its summary can be compared with a case's own."""
        result = {"error": None, "output": None, "trace": None, "evidence": None, "probes": None,
                  "program": None}
        try:
            if symbols and self.structure:
                spec = {"shapes": {n: s.get("shape") for n, s in shapes.items()}, "symbols": symbols,
                        "dtypes": {n: s.get("dtype") for n, s in shapes.items()}}
                result["program"] = self._trace_symbolic(args, spec).program
            else:
                result["program"] = self.program(args, shapes, symbols)
        except BaseException as exc:  # noqa: BLE001 - any failure of untrusted code is data
            result["error"] = self._error(exc)
            if symbols and symbolic.is_symbolic_error(self.jax, exc):
                result["error"]["kind"] = "symbolic"
        return result

    def _error(self, exc: BaseException) -> dict:
        """An exception of the submission's as data: a traced value made concrete, an exit, or
        any other exception."""
        kind = ("concretization" if isinstance(exc, self.instrument.CONCRETIZATION_ERRORS)
                else "exit" if isinstance(exc, SystemExit) else "exception")
        return describe_error(exc, kind, self.submission)

    def _flow(self, closed, skeleton, args: dict, made: dict) -> dict:
        """Does the case's cotangent reach the rule's field outside every backward rule?
        ``closed`` is a program whose last input is the factor, ``made`` the instrument's
        markers in it."""
        name = self.grad_rule["field"]
        source = self.grad_rule.get("cotangent")
        positions, start = {}, 0  # each traced parameter's inputs of the trace (a tree has several)
        for traced in self.traced:
            count = len(self.jax.tree_util.tree_leaves(args[traced]))
            positions[traced], start = list(range(start, start + count)), start + count
        sources = positions.get(source, [])
        primals = [i for n in self.traced if n != source for i in positions[n]]  # not the factor
        sinks = _slots(skeleton, name)
        computed = self.grad_rule.get("values")  # the field the custom_vjp function computes
        factor = len(closed.jaxpr.invars) - 1  # the factor is the trace's last input
        return self.provenance.trace_flow(closed, self.marker, sources, sinks, primals, factor,
                                          made=made, plumbed=bool(self.grad_rule.get("plumbed")),
                                          **({"computed": _slots(skeleton, computed)}
                                             if isinstance(computed, str) else {}))

    def _rule_followed(self, output: dict, scaled: dict, factor: float) -> bool:
        """Did scaling the backward rules' output scale the rule's field by a power of the
        factor? (A measurement used only to decide whether to measure again; the judge decides
        the rule.)"""
        name = self.grad_rule["field"]
        try:
            base, moved = protocol.decode_value(output), protocol.decode_value(scaled)
            base, moved = (v.get(name) if isinstance(v, dict) else v for v in (base, moved))
            return self.provenance.first_unscaled(base, moved, factor) is None
        except Exception:  # noqa: BLE001 - a malformed output is the judge's to report
            return True

    def _fresh(self, evidence: dict) -> bool:
        """Clear JAX's caches before measuring again, unless that already proved useless for
        this submission (then every case would pay for recompiling everything)."""
        if self.clearing_helps is False:
            return False
        self.jax.clear_caches()
        evidence["cache_cleared"] = True
        return True

    def run(self, args: dict, probe_args: dict | None = None, factor: float = 2.0,
            symbolic_spec: dict | None = None, decide: bool = False) -> dict:
        """One case's result, from the program traced once for its key (``traced_once``): the
        key of ``symbolic_spec`` (dims as symbols), or without one the case's static signature
        (``_signature``: its shapes, static values and dtypes, traced at those shapes). With
        ``decide``, where the judge answered not to evaluate the key, the case is ``skipped``."""
        spec = symbolic_spec if symbolic_spec is not None else self._signature(args)
        if decide and symbolic_spec is not None and self.answers.get(self._key(args, spec)) is False:
            skipped = self._skipped(args, spec)
            if skipped is not None:
                return skipped
        return self._run_symbolic(args, probe_args or {}, spec, factor)

    def shortened(self, args: dict, probe_args: dict | None, spec: dict | None, output=None,
                  tolerance: dict | None = None, earlier: bool = False) -> dict | None:
        """The case's output with the loop the trips rule reads stopped one trip early
        (``last_trip``): ``{"loop": its index in the program's summary, "output": VALUE}``, and
        with ``earlier``, where that moved the output, ``"earlier"``: the outputs with a few
        trips before the last left out instead (where the loop runs two trips or more,
        ``_earlier``), or None where there is no such loop or it cannot be measured; a scan of
        no step is told as ``"trips": 0`` with the case's own ``output``. Runs nothing of the
        submission's: the program its key traced, evaluated again. Once one case's output moved
        beyond ``tolerance`` (the largest of the problem's), no later case is measured, but for
        those sent with ``earlier`` until one of their key moved: one of each is what the judge
        asks for."""
        from . import last_trip, protocol, stepwise, trip_skip

        spec = spec if spec is not None else self._signature(args)
        key = self._key(args, spec)
        moved = self.last_trip.setdefault("moved", set())
        if key in moved or (moved and not earlier):
            return None
        traced = self.traced_once.get(key)
        if traced is None or isinstance(traced, BaseException) or not traced.program:
            return None
        try:
            dims = symbolic.case_dims(traced.shapes, {n: symbolic.shapes_of(args[n]) for n in traced.shapes})
            if dims is None:
                return None
            concrete = traced.at(dims)
            if getattr(traced, "loop_paths", None) is None:
                traced.loop_paths = last_trip.paths(traced.closed, self.summarize)
            found = traced.loop_paths
            primal = list(range(traced.outputs))
            index = last_trip.chosen(traced.program.get("loops") or [], lambda i: i < len(found) and
                                     last_trip.needed_by(concrete.jaxpr, found[i], primal))
            path = found[index] if index is not None and index < len(found) else None
            if path is None:
                return None
            if last_trip.no_step(concrete.jaxpr, path):
                return {"loop": index, "output": output, "trips": 0}
            inputs = self.jax.tree_util.tree_leaves([args[n] for n in self.traced])
            if traced.probes:
                inputs += self._direction_leaves(traced, concrete, probe_args or {})[0]
            if traced.marked:  # the custom_vjp instrument's factor, at 1: the output itself
                inputs.append(self.np.float32(1.0))
            def evaluate(jaxpr, consts, *values):  # every step in NumPy where it can: no compiling
                return self.evaluator.run(jaxpr, consts, *values, jit_inlined=stepwise.Budget(last_trip.STEPPED))

            with self.np.errstate(all="ignore"):
                got = last_trip.shortened(concrete, path, inputs, traced.outputs, evaluate,
                                          self.last_trip.setdefault("made", {}))
            if got is None:
                return None
            if tolerance is not None and output is not None:
                own = {k: protocol.decode_value(v) for k, v in last_trip.leaves(traced.skeleton, output).items()}
                if last_trip.moved(got[0], own, tolerance):
                    moved.add(key)
            found = {"loop": index, "output": self._fill(traced.skeleton, got[0]), "trips": got[1]}
            # the case of its key that decides (its last trip moved the output): each trip before
            # the last left out instead, so that every trip must compute, not the last alone
            if earlier and (key in moved or tolerance is None):
                loop = (traced.program.get("loops") or [])[index]
                skip = trip_skip.chosen(concrete.jaxpr, path, last_trip.trip_count(loop["length"]), inputs,
                                        traced.outputs, last_trip.MAX_ELEMENTS)
                if skip:
                    found["earlier"] = self._earlier(concrete, path, inputs, traced, skip,
                                                     last_trip.trip_count(loop["length"]))
            return found
        except Exception:  # noqa: BLE001 - a program the measurement cannot run: not measured
            return None

    def _earlier(self, concrete, path: list, inputs: list, traced, skip: list, count: int | None):
        """``{"trips": skip, "outputs": [VALUE, ...]}``: the output (encoded) with each of the
        loop's trips ``skip`` left out (``count``: the trips its summary reads), or None where it
        cannot be measured (the judge then counts the case as not moved)."""
        from . import last_trip, stepwise

        try:
            with self.np.errstate(all="ignore"):
                got = last_trip.shortened(concrete, path, inputs, traced.outputs, lambda j, c, *x: self.evaluator.run(
                    j, c, *x, jit_inlined=stepwise.Budget(last_trip.STEPPED)), self.last_trip.setdefault("made", {}),
                    skip=skip, count=count)
            return None if got is None else {"trips": list(skip),
                                             "outputs": [self._fill(traced.skeleton, o) for o in got[0]]}
        except Exception:  # noqa: BLE001 - a program the measurement cannot run: not measured
            return None

    def question(self, args: dict, spec: dict) -> dict | None:
        """What the judge is asked before the first ``decide`` case of ``spec``'s key is
        evaluated: the ``program`` and ``trace`` (primitives) of the program the key traced. None
        where the key was asked about already, or its trace failed (every case of it reports
        that, as without a question)."""
        key = self._key(args, spec)
        if key in self.answers or not self.structure:
            return None
        try:
            traced = self._traced(args, spec)
        except BaseException:  # noqa: BLE001 - the case reports it when it runs
            return None
        if traced.program is None:
            return None
        self.answers[key] = True  # until answered: evaluated
        return {"program": traced.program, "trace": traced.primitives}

    def answered(self, args: dict, spec: dict, evaluate: bool) -> None:
        """Keep the judge's answer for ``spec``'s key."""
        self.answers[self._key(args, spec)] = bool(evaluate)

    def _skipped(self, args: dict, spec: dict) -> dict | None:
        """A case of a key the judge answered not to evaluate: the program and primitives it
        was answered on, and its output's form at the case's dims (each array's shape and
        dtype, no values). None where the case's shapes do not fit the program (it runs, and
        reports that)."""
        traced = self.traced_once.get(self._key(args, spec))
        if traced is None or isinstance(traced, BaseException):
            return None
        dims = symbolic.case_dims(traced.shapes, {n: symbolic.shapes_of(args[n]) for n in traced.shapes})
        if dims is None:
            return None
        try:
            leaves = [protocol.abstract_array(aval.dtype, symbolic.concrete(aval.shape, dims))
                      for aval in traced.closed.out_avals[:traced.outputs]]
        except Exception:  # noqa: BLE001 - a shape that cannot be made concrete: run it
            return None
        return {"skipped": True, "error": None, "output": _form(traced.skeleton, leaves),
                "trace": traced.primitives, "evidence": None, "probes": None,
                "program": traced.program}


def _form(skeleton: dict, leaves: list) -> dict:
    """The output's skeleton (``output_data.split``) with each slot its abstract array."""
    kind = skeleton["kind"]
    if kind == "array":
        return leaves[skeleton["slot"]]
    if kind == "dict":
        return {"kind": "dict", "items": {k: _form(v, leaves) for k, v in skeleton["items"].items()}}
    if kind in ("list", "tuple"):
        return {"kind": kind, "items": [_form(v, leaves) for v in skeleton["items"]]}
    return skeleton


def _slots(skeleton: dict, name: str) -> list[int]:
    """The outputs of the traced program that hold the output's field ``name`` (the whole
    output where it is not a dict and ``name`` is ``value``): its arrays, nested ones too."""
    if skeleton.get("kind") == "dict":
        skeleton = skeleton["items"].get(name, {"kind": "other"})
    elif name != "value":
        skeleton = {"kind": "other"}
    found = [] if skeleton.get("kind") != "array" else [skeleton["slot"]]
    for item in output_data.nested(skeleton):
        if item.get("kind") == "array":
            found.append(item["slot"])
    return found
