"""Trace once, run many, worker side: ``TraceOnce`` (the part of the case runner that traces the
submission's entry once per key and evaluates that one program at every case of the key), and
``Traced``, a program so traced with what running it at a case needs.

Every case that runs goes this way; no case's values come from another trace. The entry, with
the judge's derivatives traced in (their cotangent and tangent as inputs), is traced once per
key (``_trace_symbolic``) and every case of the key is that one program evaluated
(``_evaluate_at``): its summary is what the rules read, and its values are what the case is
graded on. The key is either
* the one a case sent with ``symbolic`` names (``protocol``): the spec's dims are symbols, and
  each case runs the program made concrete at its dims (``symbolic.instantiate``), so the
  submission's Python never runs at a case's concrete shapes; or
* the case's static signature (``_signature``): its arrays' shapes and dtypes, its trees'
  structures and leaves, its static values exactly. The program is traced at those shapes.
The submission's Python runs only while a key is traced: once for the output, and once more
inside each derivative traced in.

With the custom_vjp instrument (``instrument``, rule ``custom_vjp_grads``) the factor its
markers scale by is the program's last input, traced under ``disable_jit`` (``_make_jaxpr``;
so is every program whose structure no rule reads). Each case's output is the program at
factor 1, its scaled output the program at the case's own random factor, and with ``values``
two more at the factors that move the functions' outputs (``shift``; each time what does not
depend on the factor is kept from the first evaluation: ``reuse``); the instrument's counts
are those of the trace, and its provenance is measured once (``_measured``; ``custody`` keeps
it for every later case of the key). Where the rule looks unfollowed, the key is traced again.

Used by ``case_runner`` (``CaseRunner`` is a ``TraceOnce``), in the process the submission
shares; decides nothing, every failure is data. The programs are kept in that process: a
submission that reflects on the process could reach them (``SECURITY.md``).
"""

from __future__ import annotations

import contextlib

from . import output_data, owned, reuse, shift, symbolic
from .output_data import describe_error


class TraceOnce:
    """The case runner's methods that trace a program once per key and run it at each case
    (mixed into ``case_runner.CaseRunner``, whose attributes they use)."""

    def _trace_symbolic(self, args: dict, spec: dict, names: list | None = None,
                        errors: dict | None = None) -> "Traced":
        """The entry traced once with ``spec``'s dims as symbols (``spec["shapes"]``: each traced
        parameter's extents, an int or a dim's name, a tree's nested as it is; ``spec["symbols"]``:
        dim -> [low, high]), the probes' derivatives traced in with their cotangent and tangent as inputs.
        A probe whose derivative cannot be traced is left out, with its error."""
        jax = self.jax
        made = symbolic.dims(jax, spec["symbols"]) if spec["symbols"] else {}
        # an array's or a tree's leaves' extents (a tree not given: at its own leaves' shapes)
        # (in the dtype ``spec`` names, where the trace has no value of the parameter's)
        specs = [symbolic.struct(jax, spec["shapes"].get(n), made, args.get(n),
                                 (spec.get("dtypes") or {}).get(n)) for n in self.traced]
        count = len(jax.tree_util.tree_leaves(specs))
        holder: dict = {}

        def forward(*values):
            out = self._call(self._bind(args, values))
            leaves: list = []
            holder["skeleton"] = self._split(out, leaves)
            holder["outputs"] = len(leaves)
            # an output the judge reports as malformed (too deep, cyclic) is never handed to
            # JAX's tree functions, which recurse without a bound: its leaves stand for it
            holder["malformed"] = output_data.malformed(holder["skeleton"])
            shown = leaves if holder["malformed"] else out
            holder["out_tree"] = jax.tree_util.tree_structure(shown)
            holder["out_leaves"] = [jax.ShapeDtypeStruct(jax.numpy.shape(v), jax.numpy.result_type(v))
                                    for v in jax.tree_util.tree_leaves(shown)]
            return leaves

        # the probes a case runs; in the worker tracing the rules' programs, the derivatives
        # the judge takes (``derivative``), traced in the same way
        asked = self.probes or self.derivative
        names = list(asked["names"] if asked else []) if names is None else list(names)
        errors = dict(errors or {})
        with symbolic.scan_length_shim(self.submission) if made else contextlib.nullcontext():
            closed = self._make_jaxpr(forward, specs)
            if names and holder["malformed"]:  # no derivative of an output JAX cannot walk
                for name in names:
                    errors[name] = describe_error(ValueError(
                        "the output is not a tree of arrays the judge can take apart"),
                        "exception", self.submission)
                names = []
            if names:
                wrt = asked["wrt"]
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
                    return self._make_jaxpr(traced, [*specs, *more])

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
                    closed = with_derivatives(kept) if kept else self._make_jaxpr(forward, specs)
                    names = kept
                    if not kept:
                        holder.pop("derived_tree", None)
        found = Traced(closed=closed, inputs=count, outputs=holder["outputs"], skeleton=holder["skeleton"],
                       out_tree=holder["out_tree"], derived_tree=holder.get("derived_tree"),
                       probes=names, errors=errors, shapes=dict(spec["shapes"]),
                       primitives=self.instrument.walk_primitives(closed),
                       program=(self.summarize(closed, symbolic=bool(made), source=self.submission,
                                               symbols=spec["symbols"] if made and self.reach else None,
                                               outputs=holder["outputs"])
                                if self.structure else None))
        if self.recorder is not None:  # what the instrument saw while this program was traced
            found.marked, found.counts, found.made = True, self.recorder.counts(), self.recorder.made()
        return found

    def _make_jaxpr(self, fn, specs: list):
        """``make_jaxpr`` of ``fn`` at ``specs``, its constants copied (``owned``). With the
        instrument, the program has one more input, last: the factor its markers scale by.
        Where no rule reads the program's structure, or the instrument must see every rule
        run, it is traced under ``disable_jit``, as eager JAX runs it: a jitted function's
        rules run in this trace instead of being served from JAX's trace cache, and its
        static arguments are not made static (a traced value there is read as a concrete
        one). Where rules read the structure, jits and scans stay what they are."""
        jax, recorder = self.jax, self.recorder
        eager = jax.disable_jit() if recorder is not None or not self.structure else contextlib.nullcontext()
        if recorder is None:
            with eager:
                return owned.own(jax.make_jaxpr(fn)(*specs))

        def marked(*values):
            recorder.begin(values[-1])
            return fn(*values[:-1])

        try:
            with eager:
                return owned.own(jax.make_jaxpr(marked)(*specs, jax.ShapeDtypeStruct((), "float32")))
        finally:
            recorder.stop()

    def _signature(self, args: dict) -> dict:
        """The key of a case sent without symbolic dims: its static signature, that is each
        traced array's shape and dtype, each tree's structure and its leaves' shapes and dtypes,
        and each static value exactly (its type, dtype and bytes). No symbols: the program is
        traced at these shapes, once, and every case of the signature runs it."""
        jax, np = self.jax, self.np
        parts, shapes = [], {}
        for parameter in self.parameters:
            name, value = parameter["name"], args[parameter["name"]]
            if not parameter["traced"]:
                parts.append((name, static_value(np, value)))
                continue
            leaves, tree = jax.tree_util.tree_flatten(value)
            parts.append((name, str(tree), [(tuple(np.shape(v)), str(np.asarray(v).dtype)) for v in leaves]))
            if len(leaves) == 1 and leaves[0] is value:  # an array, not a tree
                shapes[name] = [int(e) for e in np.shape(value)]
        return {"key": repr(parts), "shapes": shapes, "symbols": {}}

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

    def _evaluate_at(self, traced: "Traced", args: dict, probe_args: dict, factor: float = 1.0,
                     kept: "reuse.Reuse | None" = None) -> tuple[list, dict]:
        """The traced program's outputs at the case (made concrete at its dims), and the probes
        whose direction does not fit it; with the custom_vjp instrument, the backward rules'
        results scaled by ``factor`` (1: the output itself). ``kept``, the case's: its first
        evaluation keeps what does not depend on the factor, and the next takes it from there
        (``reuse``)."""
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
        if traced.marked:
            inputs.append(np.float32(factor))
        if self.compiled:  # the same program compiled whole by XLA (may fuse and reorder)
            return list(jax.jit(symbolic.as_function(concrete))(*inputs)), unfit
        # NumPy's floating-point errors ignored while the program is evaluated: an error mode set
        # by the submission ("call", "log") would run its code there, on conversions that the
        # NumPy evaluator and JAX make a different number of times
        with np.errstate(all="ignore"):
            return self.evaluator.run(concrete.jaxpr, concrete.consts, *inputs, jit_inlined=True,
                                      reuse=kept if traced.marked else None), unfit

    def _without_failing_probes(self, args: dict, probe_args: dict, spec: dict, traced: "Traced",
                                failed: BaseException | None = None):
        """The program run without the derivatives that fail when they run (a custom_vjp under
        ``jax.jvp`` traces, and raises when evaluated): each probe's program is run on its own
        at this case (with one probe, ``traced``, which raised ``failed``), and those that fail
        are left out, with their errors, for every later case of the key too; the one kept is
        traced here already unless another was traced after it with the instrument. Still
        traced with symbolic dims: nothing runs at the case's shapes."""
        errors, programs = dict(traced.errors), {}
        # the output's own program first: where it fails too, the case's error is its own
        alone = last = self._trace_symbolic(args, spec, [])
        self._evaluate_at(alone, args, probe_args)
        if failed is not None and len(traced.probes) == 1:
            errors[traced.probes[0]] = describe_error(failed, "exception", self.submission)
        else:
            for name in traced.probes:
                try:
                    programs[name] = last = self._trace_symbolic(args, spec, [name])
                    self._evaluate_at(last, args, probe_args)
                except Exception as exc:  # noqa: BLE001 - that probe's to report
                    errors[name] = describe_error(exc, "exception", self.submission)
        kept = [n for n in traced.probes if n not in errors]
        found = alone if not kept else programs.get(kept[0]) if len(kept) == 1 else None
        if found is None or (found is not last and traced.marked):
            found = self._trace_symbolic(args, spec, kept, errors)
        found.errors = {**errors, **found.errors}
        self.traced_once[self._key(args, spec)] = found
        return found

    def _run_symbolic(self, args: dict, probe_args: dict, spec: dict, factor: float = 2.0) -> dict:
        """One case's values from the program traced once for its key (``_traced``: with
        symbolic dims, or at its static signature's shapes), made concrete at the case's dims
        and evaluated; with the custom_vjp instrument, its evidence too (``_measured``,
        ``factor`` the case's)."""
        jax = self.jax
        result = {"error": None, "output": None, "trace": None, "evidence": None, "probes": None}
        try:
            traced = self._traced(args, spec)
            if traced.marked and not traced.flowed and self.recorder.made() != traced.made:
                # another program was traced since, and this one's provenance is not measured
                # yet: traced again, so that the instrument's markers are this program's
                traced = self.traced_once[self._key(args, spec)] = self._trace_symbolic(args, spec)
        except BaseException as exc:  # noqa: BLE001 - any failure of untrusted code is data
            result["error"] = self._error(exc)
            if symbolic.is_symbolic_error(jax, exc):
                result["error"]["kind"] = "symbolic"
            return result
        try:
            kept = reuse.Reuse()  # the output's evaluation, kept for the scaled one
            try:
                flat, unfit = self._evaluate_at(traced, args, probe_args, kept=kept)
            except Exception as exc:  # noqa: BLE001 - a derivative that fails when it runs, maybe
                if not traced.probes:
                    raise
                traced = self._without_failing_probes(args, probe_args, spec, traced, exc)
                kept = reuse.Reuse()
                flat, unfit = self._evaluate_at(traced, args, probe_args, kept=kept)
            evidence = {"custom_vjp_applied": 0, "backward_runs": 0}
            if traced.marked:
                traced, flat, unfit, evidence = self._measured(traced, flat, unfit, args, probe_args,
                                                               spec, factor, kept)
            result["output"] = self._fill(traced.skeleton, flat[:traced.outputs])
            if self.probes:
                probes = result["probes"] = {"errors": {**traced.errors, **unfit}}
            if traced.probes:
                derived = jax.tree_util.tree_unflatten(traced.derived_tree, list(flat[traced.outputs:]))
                for name, value in zip(traced.probes, derived):
                    if name in probes["errors"]:
                        continue
                    if name == "vjp":
                        value = gradients(self.probes["wrt"], value)
                    leaves: list = []
                    probes[name] = self._fill(self._split(value, leaves), leaves)
            result["trace"] = traced.primitives
            result["evidence"] = evidence
            if self.structure:
                result["program"] = traced.program
        except BaseException as exc:  # noqa: BLE001 - any failure of untrusted code is data
            result = {"error": self._error(exc), "output": None, "trace": None, "evidence": None,
                      "probes": None}
        return result

    def _measured(self, traced: "Traced", flat: list, unfit: dict, args: dict, probe_args: dict,
                  spec: dict, factor: float, kept: "reuse.Reuse") -> tuple:
        """The custom_vjp instrument's evidence on one case (``custom_vjp_grads``): what it
        counted while the program was traced; the output with every backward rule's result
        scaled by the case's ``factor`` (the one program evaluated again with that input); and
        the provenance of the rule's field (with ``values``, the output with the functions'
        outputs moved, ``shift``). Where the rule looks unfollowed, the key is traced again from
        cleared caches (JAX may have served a cached trace in which no rule ran; ``_fresh``), and
        what the first trace used counts too. Returns the program, outputs, unfit probes and evidence."""
        evidence: dict = {}

        def at(program, f):  # the output at factor f
            return self._fill(program.skeleton, self._evaluate_at(program, args, probe_args, f, kept)[0][:program.outputs])

        def scaled(program, outputs):
            applied, runs = program.counts
            evidence.update(custom_vjp_applied=applied, backward_runs=runs)
            got, output = at(program, factor), self._fill(program.skeleton, outputs[:program.outputs])
            return got, bool(runs and applied and self._rule_followed(output, got, factor))

        moved, followed = scaled(traced, flat)
        if not followed and not traced.retried and self._fresh(evidence):
            first = traced.primitives
            traced = self._trace_symbolic(args, spec, traced.probes, traced.errors)
            traced.retried = True
            traced.primitives = {**traced.primitives, "primitives": sorted(
                set(traced.primitives["primitives"]) | set(first["primitives"]))}
            self.traced_once[self._key(args, spec)] = traced
            kept = reuse.Reuse()
            flat, unfit = self._evaluate_at(traced, args, probe_args, kept=kept)
            moved, followed = scaled(traced, flat)
            self.clearing_helps = followed
        evidence["scaled"] = moved
        if (self.grad_rule or {}).get("values"):  # the functions' outputs moved (``shift``)
            evidence["shifted"] = shift.measure(lambda f: at(traced, f), self.jax.tree_util.tree_leaves([args, flat]), self.np)
        evidence["provenance"] = self._flow(traced.closed, traced.skeleton, args, traced.made)
        traced.flowed = True
        evidence["instrument_intact"] = self.recorder.intact()
        return traced, flat, unfit, evidence

    def _direction_leaves(self, traced: "Traced", concrete, probe_args: dict) -> tuple[list, dict]:
        """The case's cotangent and tangent as the traced program's inputs, in its order, and
        the error of each probe whose direction does not fit the program (an output of the
        wrong shape, say): that one is given zeros, so that the output is still computed, and
        reports its error instead of a value."""
        jax, np = self.jax, self.np
        invars = concrete.jaxpr.invars[:-1] if traced.marked else concrete.jaxpr.invars
        avals = [v.aval for v in invars[traced.inputs:]]
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
        #: with the custom_vjp instrument: the factor is the last input; what the instrument
        #: counted and marked while it was traced; whether a trace from cleared caches was tried
        self.marked, self.counts, self.made, self.retried = False, (0, 0), {}, False
        self.flowed = False  # its provenance measured (``custody`` keeps it from then on)

    def at(self, dims: dict):
        if not dims:  # traced at the case's own shapes: nothing to make concrete
            return self.closed
        key = tuple(sorted(dims.items()))
        found = self._instances.get(key)
        if found is None:
            found = self._instances[key] = symbolic.instantiate(self.closed, dims)
        return found


#: The input each derivative probe takes from the case: the cotangent pulled back by ``jax.vjp``,
#: the tangent pushed by ``jax.jvp``.
DIRECTIONS = {"vjp": "cotangent", "jvp": "tangent"}


def static_value(np, value) -> tuple:
    """A static (not traced) value exactly, for a signature: its type, and its dtype, shape and
    bytes where it is numeric, else its ``repr``."""
    try:
        array = np.asarray(value)
        if array.dtype != object:
            return (type(value).__name__, str(array.dtype), array.shape, array.tobytes().hex())
    except Exception:  # noqa: BLE001 - not an array: told apart by its text
        pass
    return (type(value).__name__, repr(value))


def gradients(wrt, grads):
    """``jax.vjp``'s gradients as a probe reports them: the one parameter's (``wrt`` a name), or
    by name (a list)."""
    return grads[0] if isinstance(wrt, str) else dict(zip(wrt, grads))


def tangents(wrt, tangent) -> tuple:
    """The probe's tangent as ``jax.jvp`` takes it, one per differentiated parameter."""
    return (tangent,) if isinstance(wrt, str) else tuple(tangent[n] for n in wrt)
