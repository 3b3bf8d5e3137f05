"""Trace once, run many, worker side: ``TraceOnce`` (the part of the case runner that traces the
submission's entry once per key and evaluates that one program at every case of the key), and
``Traced``, a program so traced with what running it at a case needs.

A case sent with ``symbolic`` (``protocol``) is not traced at its own shapes: the entry, with the
judge's derivatives traced in (their cotangent and tangent as inputs), is traced once per
distinct key with the spec's dims as symbols (``_trace_symbolic``), and every case of that key
is that one program made concrete at its dims (``symbolic.instantiate``) and evaluated
(``_evaluate_at``). Its summary is what the rules read, and its values are what the case is
graded on: the submission's Python never runs at a case's concrete shapes.

Used by ``case_runner`` (``CaseRunner`` is a ``TraceOnce``), in the process the submission
shares; decides nothing, every failure is data.
"""

from __future__ import annotations

from . import output_data, symbolic
from .output_data import describe_error


class TraceOnce:
    """The case runner's methods that trace a program once per key and run it at each case
    (mixed into ``case_runner.CaseRunner``, whose attributes they use)."""

    def _trace_symbolic(self, args: dict, spec: dict, names: list | None = None,
                        errors: dict | None = None) -> "Traced":
        """The entry traced once with ``spec``'s dims as symbols (``spec["shapes"]``: each traced
        array parameter's extents, an int or a dim's name; ``spec["symbols"]``: dim -> [low,
        high]), the probes' derivatives traced in with their cotangent and tangent as inputs.
        A probe whose derivative cannot be traced is left out, with its error."""
        jax, np = self.jax, self.np
        made = symbolic.dims(jax, spec["symbols"])
        specs = []
        for name in self.traced:
            if name in spec["shapes"]:
                specs.append(jax.ShapeDtypeStruct(symbolic.shape(spec["shapes"][name], made),
                                                  np.asarray(args[name]).dtype))
            else:  # a tree, at its own leaves' shapes
                specs.append(jax.tree_util.tree_map(
                    lambda v: jax.ShapeDtypeStruct(np.shape(v), np.asarray(v).dtype), args[name]))
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
        dims = symbolic.case_dims(traced.shapes, {n: tuple(np.shape(args[n])) for n in traced.shapes})
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
                        value = gradients(self.probes["wrt"], value)
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


def gradients(wrt, grads):
    """``jax.vjp``'s gradients as a probe reports them: the one parameter's (``wrt`` a name), or
    by name (a list)."""
    return grads[0] if isinstance(wrt, str) else dict(zip(wrt, grads))


def tangents(wrt, tangent) -> tuple:
    """The probe's tangent as ``jax.jvp`` takes it, one per differentiated parameter."""
    return (tangent,) if isinstance(wrt, str) else tuple(tangent[n] for n in wrt)
