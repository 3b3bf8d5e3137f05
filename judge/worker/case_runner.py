"""The worker's case runner: ``CaseRunner`` traces and evaluates the submission's entry function
on one case (its output, jaxpr, custom_vjp evidence and derivative probes, all as plain data,
``output_data``). Used by ``main``, in the process the submission shares.

A case sent with ``symbolic`` (the spec's dims as symbols, ``protocol``) is not traced at its
own shapes: the entry, with the judge's derivatives traced in (their cotangent and tangent as
inputs), is traced once per distinct ``symbolic["key"]`` with those dims as symbols, and every
case of that key is that one program made concrete at its dims (``symbolic.instantiate``) and
evaluated. Its summary is what the rules read, and its values are what the case is graded on:
the submission's Python never runs at a case's concrete shapes.
"""

from __future__ import annotations

import contextlib

from . import output_data, protocol, symbolic
from .output_data import describe_error


class CaseRunner:
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
        self.structure = bool(request.get("structure"))  # also trace each case without running it
        #: no instrument to re-run: one trace, without disable_jit, gives both values and program
        self.single_trace = self.structure and recorder is None
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

    def _split(self, value, leaves: list, depth: int = 0):
        """Output structure with arrays replaced by slots into ``leaves`` (``output_data.split``)."""
        return output_data.split(self.jax, self.np, value, leaves, depth)

    def _fill(self, skeleton, values):
        """The skeleton from ``_split`` with each slot's array encoded (``output_data.fill``)."""
        return output_data.fill(self.np, skeleton, values)

    def _evaluate(self, fn, inputs: list, factor: float | None = None, fresh: bool = True):
        """make_jaxpr of ``fn`` with ``inputs`` abstract, then evaluate that jaxpr on them.

        With the custom_vjp instrument installed, the jaxpr has one more input, the factor that
        marks what backward rules return: the output is evaluated with it at 1, and, when
        ``factor`` is given, again at ``factor`` (the scaled output; None otherwise). Runs under
        ``disable_jit`` so that a jit-wrapped submission is traced afresh each time (its rules
        run again) instead of being served from JAX's trace cache; without ``fresh`` (no
        instrument, structural rules) it is traced as it is, so the program the rules read is
        the very one whose values are judged. Either way a jitted call is evaluated operation
        by operation (``Evaluator.run``'s ``jit_inlined``), as disable_jit runs it: what the
        cases share with the reference and with each other is then single operations, which
        the compilation cache holds, rather than a program of the submission's own per shape.
        """
        jax, np, recorder = self.jax, self.np, self.recorder
        holder = {}
        # NumPy's floating-point errors ignored while the program is evaluated: an error mode set
        # by the submission ("call", "log") would run its code there, on conversions that the
        # NumPy evaluator and JAX make a different number of times. (NumPy's attributes are
        # watched; functools, which a submission may import, is not: no functools.partial here.)
        def quiet():
            return np.errstate(all="ignore")

        def traced(*values):
            if recorder is not None:
                recorder.begin(values[-1])
                values = values[:-1]
            leaves: list = []
            holder["skeleton"] = self._split(fn(*values), leaves)
            return leaves

        inputs = list(inputs) + ([np.float32(1.0)] if recorder is not None else [])
        leaves = jax.tree_util.tree_leaves(inputs)  # a tree parameter is one input per leaf
        try:
            with jax.disable_jit() if fresh else contextlib.nullcontext():
                closed = jax.make_jaxpr(traced)(*inputs)
            if self.compiled:  # the same computation compiled whole by XLA (may fuse and reorder)
                flat = jax.jit(traced)(*inputs)
            else:
                with quiet():  # a jitted call operation by operation, as under disable_jit
                    flat = self.evaluator.run(closed.jaxpr, closed.consts, *leaves, jit_inlined=True)
        finally:
            if recorder is not None:
                recorder.stop()
        scaled = None
        if factor is not None and recorder is not None:
            with quiet():
                moved = self.evaluator.run(closed.jaxpr, closed.consts, *leaves[:-1], np.float32(factor),
                                           jit_inlined=True)
            scaled = self._fill(holder["skeleton"], moved)
        return closed, self._fill(holder["skeleton"], flat), scaled, holder["skeleton"]

    def _bind(self, args: dict, traced_values) -> dict:
        values = dict(args)
        values.update(zip(self.traced, traced_values))
        return values

    def _call(self, values: dict):
        return self.entry(*[values[p["name"]] for p in self.parameters])

    def trace(self, args: dict, factor: float | None = None):
        """The entry's output on one case (and with its backward rules scaled by ``factor``),
        its jaxpr, and what the custom_vjp instrument saw."""
        closed, output, scaled, skeleton = self._evaluate(
            lambda *t: self._call(self._bind(args, t)), [args[name] for name in self.traced], factor,
            fresh=not self.single_trace)
        applied, runs = self.recorder.counts() if self.recorder else (0, 0)
        evidence = {"custom_vjp_applied": applied, "backward_runs": runs}
        return closed, output, scaled, skeleton, evidence

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

        def forward(*values):
            leaves: list = []
            self._split(self._call(self._bind(args, values)), leaves)
            return leaves

        def with_derivative(*values):
            out, derived = self._derived(self._bind(args, values))
            leaves: list = []
            self._split(out, leaves)
            return leaves + jax.tree_util.tree_leaves(derived)

        with symbolic.scan_length_shim() if made else contextlib.nullcontext():
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
        return self.summarize(closed, symbolic=bool(made), source=self.submission)

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
                tangents = _tangents(wrt, directions["tangent"])
            pushed_out, pushed = jax.jvp(of_wrt, tuple(primals), tangents)
            out = pushed_out if out is None else out
            derived.append(pushed)
        return out, derived

    def _probes_in_program(self, args: dict, probe_args: dict) -> tuple | None:
        """The probes' derivatives and the case's program from one trace: the program the rules
        read (``program``: the output and the derivatives, traced as they are) traced with the
        case's cotangent and tangent as inputs in place of ones, and evaluated. Returns (the
        probes as ``run`` reports them, the primitives of that program, its summary), or None
        where that program cannot be traced or evaluated: then the probes and the program are
        each traced on their own, which reports the failure where it belongs."""
        jax, np = self.jax, self.np
        wrt = self.probes["wrt"]
        try:
            directions = {DIRECTIONS[n]: probe_args[DIRECTIONS[n]] for n in self.probes["names"]}
            holder = {}

            def with_derivative(*values):
                count = len(self.traced)
                out, derived = self._derived(self._bind(args, values[:count]),
                                             dict(zip(directions, values[count:])))
                leaves: list = []
                self._split(out, leaves)
                flat, holder["tree"] = jax.tree_util.tree_flatten(derived)
                holder["outputs"] = len(leaves)
                return leaves + flat

            inputs = [args[n] for n in self.traced] + list(directions.values())
            closed = jax.make_jaxpr(with_derivative)(*inputs)
            with np.errstate(all="ignore"):  # as in ``_evaluate``
                # operation by operation, as the probes' own traces (under disable_jit) ran
                flat = self.evaluator.run(closed.jaxpr, closed.consts, *jax.tree_util.tree_leaves(inputs),
                                          jit_inlined=True)
            derived = jax.tree_util.tree_unflatten(holder["tree"], list(flat[holder["outputs"]:]))
        except Exception:  # noqa: BLE001 - the separate traces report it
            return None
        probes: dict = {"errors": {}}
        for name, value in zip(self.probes["names"], derived):
            if name == "vjp":
                value = _gradients(wrt, value)
            leaves = []
            probes[name] = self._fill(self._split(value, leaves), leaves)
        return probes, self.instrument.walk_primitives(closed)["primitives"], \
            self.summarize(closed, source=self.submission)

    def abstract(self, args: dict, shapes: dict, symbols: dict | None = None) -> dict:
        """Only the program summary, at ``shapes`` (with ``symbols``, some extents symbolic):
        nothing runs."""
        result = {"error": None, "output": None, "trace": None, "evidence": None, "probes": None,
                  "program": None}
        try:
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

    def _flow(self, closed, skeleton, args: dict) -> dict:
        """Does the case's cotangent reach the rule's field outside every backward rule?"""
        name = self.grad_rule["field"]
        source = self.grad_rule.get("cotangent")
        positions, start = {}, 0  # each traced parameter's inputs of the trace (a tree has several)
        for traced in self.traced:
            count = len(self.jax.tree_util.tree_leaves(args[traced]))
            positions[traced], start = list(range(start, start + count)), start + count
        sources = positions.get(source, [])
        primals = [i for n in self.traced if n != source for i in positions[n]]  # not the factor
        if skeleton.get("kind") == "dict":
            skeleton = skeleton["items"].get(name, {"kind": "other"})
        elif name != "value":
            skeleton = {"kind": "other"}
        sinks = [] if skeleton.get("kind") != "array" else [skeleton["slot"]]
        for item in output_data.nested(skeleton):
            if item.get("kind") == "array":
                sinks.append(item["slot"])
        factor = start  # the factor is the trace's last input
        made = self.recorder.made() if self.recorder else set()
        return self.provenance.trace_flow(closed, self.marker, sources, sinks, primals, factor,
                                          made=made, plumbed=bool(self.grad_rule.get("plumbed")))

    def probe(self, name: str, args: dict, probe_args: dict) -> tuple:
        """A derivative of the entry with respect to its ``wrt`` parameters, computed by the
        judge: ``jax.vjp`` pulling back the case's cotangent (shaped like the output), or
        ``jax.jvp`` pushing its tangent. ``wrt`` a name: that parameter's gradient, and its
        tangent; a list: the gradients by name, and a tangent for each. Returns the result and
        the primitives of the derivative's program."""
        jax, wrt = self.jax, self.probes["wrt"]
        names = [wrt] if isinstance(wrt, str) else list(wrt)

        def derivative(*traced_values):
            values = self._bind(args, traced_values[:-1])
            direction = traced_values[-1]

            def of_wrt(*ws):
                return self._call({**values, **dict(zip(names, ws))})

            primals = [values[n] for n in names]
            if name == "vjp":
                out, pull = jax.vjp(of_wrt, *primals)
                return _gradients(wrt, pull(output_data.like(out, direction)))
            return jax.jvp(of_wrt, tuple(primals), _tangents(wrt, direction))[1]

        direction = probe_args[DIRECTIONS[name]]
        closed, output = self._evaluate(derivative, [args[n] for n in self.traced] + [direction])[:2]
        # what the derivative ran counts as the program's too: a callback hidden in a backward
        # or forward-mode rule runs only there
        return output, self.instrument.walk_primitives(closed)["primitives"]

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

    def _trace_symbolic(self, args: dict, spec: dict, names: list | None = None,
                        errors: dict | None = None) -> "Traced":
        """The entry traced once with ``spec``'s dims as symbols (``spec["shapes"]``: each traced
        parameter's extents, an int or a dim's name, a tree's nested as it is; ``spec["symbols"]``:
        dim -> [low, high]), the probes' derivatives traced in with their cotangent and tangent as inputs.
        A probe whose derivative cannot be traced is left out, with its error."""
        jax = self.jax
        made = symbolic.dims(jax, spec["symbols"])
        # an array's or a tree's leaves' extents (a tree not given: at its own leaves' shapes)
        specs = [symbolic.struct(jax, spec["shapes"].get(n), made, args[n]) for n in self.traced]
        count = len(jax.tree_util.tree_leaves(specs))
        holder: dict = {}

        def forward(*values):
            out = self._call(self._bind(args, values))
            leaves: list = []
            holder["skeleton"] = self._split(out, leaves)
            holder["outputs"] = len(leaves)
            holder["out_tree"] = jax.tree_util.tree_structure(out)
            holder["out_leaves"] = [jax.ShapeDtypeStruct(jax.numpy.shape(v), jax.numpy.result_type(v))
                                    for v in jax.tree_util.tree_leaves(out)]
            return leaves

        names = list(self.probes["names"] if self.probes else []) if names is None else list(names)
        errors = dict(errors or {})
        with symbolic.scan_length_shim():
            closed = jax.make_jaxpr(forward)(*specs)
            if names:
                wrt = self.probes["wrt"]
                wrt_names = [wrt] if isinstance(wrt, str) else list(wrt)
                by_name = dict(zip(self.traced, specs))
                tangent = by_name[wrt] if isinstance(wrt, str) else {n: by_name[n] for n in wrt_names}
                tangent_leaves, tangent_tree = jax.tree_util.tree_flatten(tangent)
                cotangent_leaves = list(holder["out_leaves"])

                def with_derivatives(taken):
                    def traced(*values):
                        rest = list(values[len(self.traced):])
                        directions = {}
                        if "vjp" in taken:
                            directions["cotangent"] = jax.tree_util.tree_unflatten(
                                holder["out_tree"], rest[:len(cotangent_leaves)])
                            rest = rest[len(cotangent_leaves):]
                        if "jvp" in taken:
                            directions["tangent"] = jax.tree_util.tree_unflatten(tangent_tree, rest)
                        out, derived = self._derived(self._bind(args, values[:len(self.traced)]),
                                                     directions, {"wrt": wrt, "names": taken})
                        leaves: list = []
                        holder["skeleton"] = self._split(out, leaves)
                        holder["outputs"] = len(leaves)
                        flat, holder["derived_tree"] = jax.tree_util.tree_flatten(derived)
                        return leaves + flat

                    more = (cotangent_leaves if "vjp" in taken else []) + (
                        tangent_leaves if "jvp" in taken else [])
                    return jax.make_jaxpr(traced)(*specs, *more)

                try:
                    closed = with_derivatives(names)
                except Exception as exc:  # noqa: BLE001 - a derivative the function does not have
                    if symbolic.is_symbolic_error(jax, exc) or isinstance(
                            exc, self.instrument.CONCRETIZATION_ERRORS):
                        raise
                    kept = []
                    for name in names:  # which probe it is, each reported as its own
                        try:
                            with_derivatives([name])
                            kept.append(name)
                        except Exception as alone:  # noqa: BLE001 - that probe's to report
                            if symbolic.is_symbolic_error(jax, alone) or isinstance(
                                    alone, self.instrument.CONCRETIZATION_ERRORS):
                                raise
                            errors[name] = describe_error(alone, "exception", self.submission)
                    closed = with_derivatives(kept) if kept else jax.make_jaxpr(forward)(*specs)
                    names = kept
                    if not kept:
                        holder.pop("derived_tree", None)
        return Traced(closed=closed, inputs=count, outputs=holder["outputs"], skeleton=holder["skeleton"],
                      out_tree=holder["out_tree"], derived_tree=holder.get("derived_tree"),
                      probes=names, errors=errors, shapes=dict(spec["shapes"]),
                      primitives=self.instrument.walk_primitives(closed),
                      program=self.summarize(closed, symbolic=True, source=self.submission))

    def _key(self, args: dict, spec: dict) -> str:
        """The key of the program a case runs (a tree's leaf shapes are part of it)."""
        trees = [(n, [tuple(self.np.shape(v)) for v in self.jax.tree_util.tree_leaves(args[n])])
                 for n in self.traced if n not in spec["shapes"]]
        return repr((spec["key"], trees))

    def _traced(self, args: dict, spec: dict) -> "Traced":
        """The program traced with symbolic dims for ``spec``'s key, traced at its first case;
        raises what that trace raised."""
        key = self._key(args, spec)
        found = self.traced_once.get(key)
        if found is None:
            try:
                found = self._trace_symbolic(args, spec)
            except BaseException as exc:  # noqa: BLE001 - every case of the key reports it
                found = exc
            self.traced_once[key] = found
        if isinstance(found, BaseException):
            raise found
        return found

    def _evaluate_at(self, traced: "Traced", args: dict, probe_args: dict) -> tuple[list, dict]:
        """The traced program's outputs at the case (made concrete at its dims), and the probes
        whose direction does not fit it."""
        jax, np = self.jax, self.np
        dims = symbolic.case_dims(traced.shapes, {n: symbolic.shapes_of(args[n]) for n in traced.shapes})
        if dims is None:
            raise ValueError("the case's shapes are not those of the program traced for it")
        concrete = traced.at(dims)
        inputs = jax.tree_util.tree_leaves([args[n] for n in self.traced])
        unfit: dict = {}
        if traced.probes:
            directions, unfit = self._direction_leaves(traced, concrete, probe_args)
            inputs += directions
        if self.compiled:  # the same program compiled whole by XLA (may fuse and reorder)
            return list(jax.jit(symbolic.as_function(concrete))(*inputs)), unfit
        with np.errstate(all="ignore"):  # as in ``_evaluate``
            return self.evaluator.run(concrete.jaxpr, concrete.consts, *inputs, jit_inlined=True), unfit

    def _without_failing_probes(self, args: dict, probe_args: dict, spec: dict, traced: "Traced"):
        """The program run without the derivatives that fail when they run (a custom_vjp under
        ``jax.jvp`` traces, and raises when evaluated): each probe's program is run on its own
        at this case, and those that fail are left out, with their errors, for every later
        case of the key too. Still traced with symbolic dims: nothing runs at the case's shapes."""
        errors = dict(traced.errors)
        # the output's own program first: where it fails too, the case's error is its own
        self._evaluate_at(self._trace_symbolic(args, spec, []), args, probe_args)
        for name in traced.probes:
            try:
                self._evaluate_at(self._trace_symbolic(args, spec, [name]), args, probe_args)
            except Exception as exc:  # noqa: BLE001 - that probe's to report
                errors[name] = describe_error(exc, "exception", self.submission)
        kept = [n for n in traced.probes if n not in errors]
        found = self.traced_once[self._key(args, spec)] = self._trace_symbolic(args, spec, kept, errors)
        return found

    def _run_symbolic(self, args: dict, probe_args: dict, spec: dict) -> dict:
        """One case's values from the program traced with symbolic dims (``_traced``), made
        concrete at the case's dims and evaluated."""
        jax = self.jax
        result = {"error": None, "output": None, "trace": None, "evidence": None, "probes": None}
        try:
            traced = self._traced(args, spec)
        except BaseException as exc:  # noqa: BLE001 - any failure of untrusted code is data
            result["error"] = self._error(exc)
            if symbolic.is_symbolic_error(jax, exc):
                result["error"]["kind"] = "symbolic"
            return result
        try:
            try:
                flat, unfit = self._evaluate_at(traced, args, probe_args)
            except Exception:  # noqa: BLE001 - a derivative that fails when it runs, maybe
                if not traced.probes:
                    raise
                traced = self._without_failing_probes(args, probe_args, spec, traced)
                flat, unfit = self._evaluate_at(traced, args, probe_args)
            result["output"] = self._fill(traced.skeleton, flat[:traced.outputs])
            if self.probes:
                probes = result["probes"] = {"errors": {**traced.errors, **unfit}}
            if traced.probes:
                derived = jax.tree_util.tree_unflatten(traced.derived_tree, list(flat[traced.outputs:]))
                for name, value in zip(traced.probes, derived):
                    if name in probes["errors"]:
                        continue
                    if name == "vjp":
                        value = _gradients(self.probes["wrt"], value)
                    leaves: list = []
                    probes[name] = self._fill(self._split(value, leaves), leaves)
            result["trace"] = traced.primitives
            result["evidence"] = {"custom_vjp_applied": 0, "backward_runs": 0}
            if self.structure:
                result["program"] = traced.program
        except BaseException as exc:  # noqa: BLE001 - any failure of untrusted code is data
            result = {"error": self._error(exc), "output": None, "trace": None, "evidence": None,
                      "probes": None}
        return result

    def _direction_leaves(self, traced: "Traced", concrete, probe_args: dict) -> tuple[list, dict]:
        """The case's cotangent and tangent as the traced program's inputs, in its order, and
        the error of each probe whose direction does not fit the program (an output of the
        wrong shape, say): that one is given zeros, so that the output is still computed, and
        reports its error instead of a value."""
        jax, np = self.jax, self.np
        avals = [v.aval for v in concrete.jaxpr.invars[traced.inputs:]]
        parts, errors = [], {}
        if "vjp" in traced.probes:
            template = jax.tree_util.tree_unflatten(traced.out_tree, [0] * traced.out_tree.num_leaves)
            flat, tree = jax.tree_util.tree_flatten(output_data.like(template, probe_args.get("cotangent")))
            parts.append(("vjp", flat if tree == traced.out_tree else None, traced.out_tree.num_leaves))
        if "jvp" in traced.probes:
            wrt, tangent = self.probes["wrt"], probe_args.get("tangent")
            try:
                flat = jax.tree_util.tree_leaves(tangent if isinstance(wrt, str) else {n: tangent[n] for n in wrt})
            except Exception:  # noqa: BLE001 - not the parameters' structure
                flat = None
            parts.append(("jvp", flat, len(avals) - sum(p[2] for p in parts)))
        leaves, start = [], 0
        for name, flat, count in parts:
            wanted = avals[start:start + count]
            start += count
            fits = flat is not None and len(flat) == count and all(
                tuple(np.shape(leaf)) == tuple(aval.shape) for leaf, aval in zip(flat, wanted))
            if not fits:
                errors[name] = describe_error(ValueError(
                    f"the case's {DIRECTIONS[name]} does not fit the program's "
                    f"{'output' if name == 'vjp' else 'inputs'}: shapes "
                    f"{[tuple(a.shape) for a in wanted]}"), "exception", self.submission)
                flat = [np.zeros(aval.shape, aval.dtype) for aval in wanted]
            leaves += flat
        return leaves, errors

    def run(self, args: dict, probe_args: dict | None = None, factor: float = 2.0,
            symbolic_spec: dict | None = None) -> dict:
        if symbolic_spec is not None and self.recorder is None:
            return self._run_symbolic(args, probe_args or {}, symbolic_spec)
        result = {"error": None, "output": None, "trace": None, "evidence": None, "probes": None}
        rule, first = self.grad_rule, None
        try:
            closed, output, scaled, skeleton, evidence = self.trace(args, factor if rule else None)
            ran = evidence["backward_runs"] and evidence["custom_vjp_applied"]
            if rule and not (ran and self._rule_followed(output, scaled, factor)):
                # A rule may have been skipped because JAX served a cached trace (lax control
                # flow caches its bodies); measure again from clean caches before reporting.
                cleared = self._fresh(evidence)
                if cleared:
                    first = closed
                    closed, output, scaled, skeleton, again = self.trace(args, factor)
                    evidence.update(again)
                    self.clearing_helps = bool(evidence["backward_runs"] and evidence["custom_vjp_applied"]
                                               and self._rule_followed(output, scaled, factor))
            result["output"] = output
            result["trace"] = self.instrument.walk_primitives(closed)
            if first is not None:  # what the first trace used counts too (a callback, say)
                seen = self.instrument.walk_primitives(first)
                result["trace"] = {
                    "primitives": sorted(set(result["trace"]["primitives"]) | set(seen["primitives"])),
                    "custom_vjp_calls": result["trace"]["custom_vjp_calls"]}
            if rule:
                evidence["scaled"] = scaled
                evidence["provenance"] = self._flow(closed, skeleton, args)
                evidence["instrument_intact"] = self.recorder.intact()
            result["evidence"] = evidence
            if self.probes:
                seen = set(result["trace"]["primitives"])
                # the program the rules read takes the probes' derivatives already: where the
                # values are judged from the program as traced, it gives the probes' values too
                merged = (self._probes_in_program(args, probe_args or {})
                          if self.single_trace and self.derivative == self.probes and not self.compiled
                          else None)
                if merged is not None:
                    result["probes"], used, result["program"] = merged
                    seen.update(used)
                else:
                    probes = result["probes"] = {"errors": {}}
                    for name in self.probes["names"]:
                        try:
                            probes[name], used = self.probe(name, args, probe_args or {})
                            seen.update(used)
                        except self.instrument.CONCRETIZATION_ERRORS:
                            raise
                        except Exception as exc:  # noqa: BLE001 - e.g. no forward-mode rule
                            probes["errors"][name] = describe_error(exc, "exception", self.submission)
                result["trace"] = {**result["trace"], "primitives": sorted(seen)}
            if self.structure and "program" not in result:
                result["program"] = (self.summarize(closed, source=self.submission)
                                     if self.single_trace and not self.derivative
                                     else self.program(args))
        except BaseException as exc:  # noqa: BLE001 - any failure of untrusted code is data
            result["error"] = self._error(exc)
        return result


class Traced:
    """A program traced once with symbolic dims, and what running it at a case needs: how many
    of its inputs are the parameters' leaves and of its outputs the output's, the output's
    skeleton and tree, the derivatives' tree and names (the probes traced in), each left-out
    probe's error, and each of its instances by dims (made once each)."""

    def __init__(self, closed, inputs, outputs, skeleton, out_tree, derived_tree, probes, errors,
                 shapes, primitives, program):
        self.closed, self.inputs, self.outputs = closed, inputs, outputs
        self.skeleton, self.out_tree, self.derived_tree = skeleton, out_tree, derived_tree
        self.probes, self.errors, self.shapes = probes, errors, shapes
        self.primitives, self.program = primitives, program
        self._instances: dict = {}

    def at(self, dims: dict):
        key = tuple(sorted(dims.items()))
        found = self._instances.get(key)
        if found is None:
            found = self._instances[key] = symbolic.instantiate(self.closed, dims)
        return found


#: The input each derivative probe takes from the case: the cotangent pulled back by ``jax.vjp``,
#: the tangent pushed by ``jax.jvp``.
DIRECTIONS = {"vjp": "cotangent", "jvp": "tangent"}


def _gradients(wrt, grads):
    """``jax.vjp``'s gradients as a probe reports them: the one parameter's (``wrt`` a name), or
    by name (a list)."""
    return grads[0] if isinstance(wrt, str) else dict(zip(wrt, grads))


def _tangents(wrt, tangent) -> tuple:
    """The probe's tangent as ``jax.jvp`` takes it, one per differentiated parameter."""
    return (tangent,) if isinstance(wrt, str) else tuple(tangent[n] for n in wrt)
