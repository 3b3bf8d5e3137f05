"""What the worker keeps out of the submission's hands: the objects that decide what the custom_vjp
rule reports, taken before the submission is imported and checked around every case (``main``).

A submission shares the worker's process, so nothing here is out of its reach if it reflects on
the process (frames, the garbage collector, closures): the source gate refuses that. Behind the
gate, the aim is that no single overwritten object flips a verdict:

* ``Measures`` is what the case runner computes provenance with. Its ``trace_flow`` takes the
  instrument's marker and record from here, whatever its caller passes, measures each program
  once (the first time it is asked, right after that program's trace, while the record is that
  trace's) and gives every later case of the program the same result, and keeps a copy of
  every result it gives, so that ``check_flow`` can tell whether the provenance a case reports
  is the one measured: a replaced provenance module, or a runner method shadowed on the
  instance, even if put back before the case ends, reports one that was not.
* ``frozen_attributes`` checks that an object's attributes are still the very objects they were
  (a replaced recorder, marker, rule or module reference; a method shadowed on the instance).
* ``watched_modules`` lists the functions of NumPy replaced since the submission was imported:
  the evaluation of every case calls them on its concrete values.

Neither decides anything: a finding stops the run as ``instrument_tampered`` (``main``).
"""

from __future__ import annotations

from . import shift


class Measures(tuple):
    """The provenance functions the case runner calls (``trace_flow``, ``first_unscaled``), as a
    tuple so that neither can be replaced on it."""

    __slots__ = ()

    trace_flow = property(lambda self: tuple.__getitem__(self, 0))
    first_unscaled = property(lambda self: tuple.__getitem__(self, 1))


def measures(recorder, marker: str, provenance, plumbed: bool = False):
    """(a ``Measures`` for the runner, ``check_flow``). ``check_flow(evidence)`` returns why the
    provenance in a case's evidence is not the one measured for it (None if it is), replaces it
    by the copy kept here, and forgets the case's measurements."""
    flows: list = []
    programs: dict = {}  # (id of the program, the measure's arguments) -> (program, its result)
    trace_flow, first_unscaled, made = provenance.trace_flow, shift.first_unscaled, recorder.made
    intact, dict_, len_, isinstance_ = recorder.intact, dict, len, isinstance
    id_, tuple_ = id, tuple

    def measured(closed, _marker, sources, sinks, primals, factor, made=None, plumbed=None,
                 computed=None):
        # a program is measured once, when first asked, right after its trace (the instrument's
        # markers are then its own; a later trace replaces them), and kept with its result:
        # every case that runs it reports that result
        computed = None if computed is None else tuple_(computed)
        key = (id_(closed), tuple_(sources), tuple_(sinks), tuple_(primals), factor, computed)
        kept = programs.get(key)
        if kept is not None and kept[0] is closed:
            found = dict_(kept[1])
        else:  # the request's plumbed, as the marker, whatever the caller passes
            found = trace_flow(closed, marker, sources, sinks, primals, factor, made=recorded(),
                               **({"plumbed": True} if wanted_plumbed else {}),
                               **({"computed": list(computed)} if computed is not None else {}))
            programs[key] = (closed, dict_(found))
        flows.append(dict_(found))
        return found

    wanted_plumbed = bool(plumbed)

    def recorded():
        return made()

    def check_flow(evidence) -> str | None:
        try:
            if not isinstance_(evidence, dict_) or "provenance" not in evidence:
                return None if not flows else "a provenance measured but not reported"
            if len_(flows) != 1 or evidence["provenance"] != flows[0]:
                return "a provenance reported that was not measured for this case"
            evidence["provenance"] = flows[0]
            evidence["instrument_intact"] = intact()
            return None
        finally:
            flows.clear()

    return Measures((measured, first_unscaled)), check_flow


def watched_modules(*modules):
    """A function listing the attributes of ``modules`` that were replaced or deleted since this
    call (the module's own later additions, such as a submodule imported lazily, are not).

    Taken before the submission is imported, for NumPy: the evaluator, the case runner, the
    channel's encoder and JAX itself call NumPy's functions by module attribute on the case's
    concrete values, so a function put there by the submission (``m = numpy; m.maximum = f``,
    which the source gate cannot tell from an assignment to the submission's own object) would
    be a callback the traced program does not show. Every write is recorded as it happens, so
    one undone before the check is still listed."""
    import types

    writes: list = []
    snapshots = {id(module): (module, dict(vars(module))) for module in modules}

    class Watched(types.ModuleType):
        def __setattr__(self, name, value):
            before = snapshots[id(self)][1]
            if name in before and value is not before[name]:
                writes.append(f"{self.__name__}.{name}")
            super().__setattr__(name, value)

        def __delattr__(self, name):
            if name in snapshots[id(self)][1]:
                writes.append(f"{self.__name__}.{name}")
            super().__delattr__(name)

    methods = dict(vars(Watched))
    for module, _ in snapshots.values():
        module.__class__ = Watched

    def changed(vars_=vars, type_=type, sorted_=sorted, set_=set, missing=object()) -> list[str]:
        found = set_(writes)
        if vars_(Watched) != methods:
            found.add("the watch on NumPy's functions")
        for module, before in snapshots.values():
            if type_(module) is not Watched:
                found.add(f"{module.__name__} (watch removed)")
            now = vars_(module)
            found.update(f"{module.__name__}.{name}" for name, obj in before.items()
                         if now.get(name, missing) is not obj)
        return sorted_(found)

    return changed


def frozen_attributes(obj, keep=()):
    """A function listing the attributes of ``obj`` that are no longer the objects they are now
    (replaced, added or deleted), except those named in ``keep``."""
    snapshot, kind = dict(vars(obj)), type(obj).__name__

    def changed(vars_=vars, set_=set, sorted_=sorted, missing=object()) -> list[str]:
        now = vars_(obj)
        names = (set_(now) | set_(snapshot)) - set_(keep)
        return sorted_(f"{kind}.{n}" for n in names
                       if now.get(n, missing) is not snapshot.get(n, missing))

    return changed
