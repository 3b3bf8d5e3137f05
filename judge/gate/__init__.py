"""The trusted source gate: layer 1 of the judge's defences (SECURITY.md, "Defence layers").

Before a submission runs, the judge process parses its source with ``ast`` and refuses
reflective and process-level access. The source is never executed, compiled to bytecode or
imported here. ``check`` returns the findings (line, column, construct, a short reason); a
submission with findings is never run, and every case gets ``RJ forbidden_construct``
(``judge.grade.grading``). Source that does not parse is left to the worker, which reports
``CE syntax_error`` as before.

What is refused, and why (``docs/students.md``, The source gate, says it in a student's words):

* imports outside an allowlist: the spec's ``allowed_imports`` (a list that replaces
  ``DEFAULT_ALLOWED_IMPORTS``; a module allows its submodules). ``DENIED_SUBMODULES`` stay
  refused even where their package is allowed, unless the spec names them (or a module inside
  them): they expose JAX internals (``jax.core``, ``jax.interpreters``, ``jax.extend``,
  ``jax.lib``), foreign code or serialized programs (``jax.ffi``, ``jax.export``,
  ``jax.experimental`` with its callbacks and executable deserialization), process-wide
  settings and listeners (``jax.config``, ``jax.monitoring``; ``jax.config.<flag>`` is read
  for the numeric flags in ``READABLE_CONFIG_FLAGS``), files and servers
  (``jax.profiler``, ``jax.distributed``), raw memory and file formats (``numpy.lib`` with
  ``as_strided`` and ``format``, ``numpy.ctypeslib``), or build and load C code
  (``numpy.testing``, ``numpy.f2py``). Private modules (a component starting with ``_``),
  relative imports and ``import *`` are refused everywhere.
* dunder attributes (``x.__class__``, ``f.__globals__``), except a few that are plain strings
  (``__name__``, ``__qualname__``, ``__doc__``, ``__version__``) and ``super().__init__`` and
  the like. Defining dunder methods (``def __call__``) stays allowed.
* private attributes (``x._foo``), except on ``self``/``cls`` (the first parameter of a method
  that nothing else in the method rebinds) for names the submission's own classes bind (a
  ``self._scale = ...`` in some method, or ``_helper`` defined in a class body). Private
  *names* (``def _fwd``, ``_cache = []``) are the student's own and stay allowed.
* frame, code, traceback, generator and coroutine attributes (``f_back``, ``tb_frame``,
  ``gi_frame``, ``co_*``, ...), whatever object they are taken from.
* the built-ins ``eval``, ``exec``, ``compile``, ``__import__``, ``open``, ``breakpoint``,
  ``input``, ``help``, ``globals``, ``locals``, ``vars`` (not even as a variable's name, except
  a function's own parameter or local variable, which Python never resolves to the built-in:
  ``judge.gate.shadows``), and
  ``getattr``/``setattr``/``delattr``/``hasattr`` except as a direct call with a string
  literal that is itself an allowed attribute; the same for the other functions that take
  attribute names as strings (``operator.attrgetter``/``methodcaller``, the ``assigned`` and
  ``updated`` arguments of ``functools.wraps``/``update_wrapper``, the field lists of
  ``jax.tree_util.register_dataclass``, called directly or as the class decorator
  ``functools.partial(register_dataclass, data_fields=[...], meta_fields=[...])``) and for the
  keyword attributes of ``match`` class patterns.
* ``str.format``/``format_map`` with attribute or index access in a field (``"{0.__class__}"``,
  ``"{0[x]}"``), and either called on a string that is not a literal (or a name bound once, to
  a literal); the same for the template of ``jax.debug.print``/``log``, which is formatted with
  ``str.format`` (``jax.debug`` is used only as ``jax.debug.<function>``).
* reading attributes by names that are data at run time (``judge.gate.classes``): a class
  pattern with positional sub-patterns, unless the class is a built-in that matches the subject
  itself and that the file does not rebind (``case int(n)``), or a dataclass or NamedTuple the
  file defines once, with no other base or decorator (its annotated names are checked like
  attributes); an ABC's ``register`` (it makes ``isinstance`` and class patterns true for
  generators and frames); ``namedtuple``/``NamedTuple`` with field names that are not literals,
  or held in a variable; ``dataclasses.asdict``/``astuple``.
* attribute names that are modules the judge does not allow (``MODULE_NAMES``: ``typing.sys``,
  ``dataclasses.inspect``, ``jax.version.subprocess``, ...) and members that read or write
  files or memory, evaluate strings or list the process's objects (``np.load``,
  ``np.fromfile``, ``np.memmap``, ``np.save*``, ``arr.tofile``, ``jnp.load``,
  ``typing.get_type_hints``, ``jax.live_arrays``, ...). A static check cannot follow a value
  through variables (``m = typing; m.sys``), so these are refused by *name*, whatever object
  they are taken from; ``tests/test_gate.py`` walks the modules of the default allowlist and
  checks that every module reachable by attribute is either allowed, harmless or refused by
  name here.
* the names ``__builtins__``, ``__loader__``, ``__spec__``, ``__file__`` and the other dunder
  names except ``__name__``, ``__doc__`` and ``__debug__``; a string literal that names a
  dunder or frame attribute (it could reach it through a function that takes attribute names);
  assigning to or deleting attributes of an imported module or function (``jax.vjp = f``);
  arrays built over a buffer (``np.ndarray(shape, object, buffer)``, ``type(arr)(...)`` with a
  buffer, ``np.recarray``), whose raw bytes become object references with an object dtype.
* files over ``MAX_SOURCE_BYTES`` (128 KiB), before they are parsed, and code nested too
  deeply to check.

What a static check cannot see (a method called through its class on a foreign object, a
constructor reached through a variable) is listed in SECURITY.md; the layers behind the gate do
not depend on it.

What stays allowed: everything an honest solution needs, in every style we know (the table in
``tests/test_gate.py``): ``jax.custom_vjp`` as decorator or call, ``nondiff_argnums``,
``functools.partial``, ``from jax import custom_vjp, vjp``, ``jax.jit`` with static arguments,
helper factories, classes with ``__init__``/``__call__`` and ``self._x``, dataclasses, type
hints, ``lru_cache``, ``print``, leading-underscore helpers, NumPy constants, ``jax.grad``,
``vmap``, ``lax.cond``/``scan``. Callbacks (``jax.pure_callback``, ``jax.debug.callback``) are
not refused here: the function they call is the submission's own code, checked like the rest,
and the rules (layer 2, ``no_callbacks``) decide whether a problem allows them.

RestrictedPython (Zope's, 9.0) was evaluated and is not used. Its compile step alone refuses
honest code (every name starting with ``_``: ``def _fwd``, ``self._scale``, and ``os._exit``
in the known submissions) unless its policy is subclassed, and lets through most of what must
be refused here (any import, ``typing.sys``, ``getattr`` with a computed name,
``"{0.__class__}".format``, ``np.load``): those it leaves to *runtime* guards
(``_getattr_``, ``__import__``, ``_getitem_``, ``_write_``, ``_print_`` ...) that the worker
would have to install and run beside the hostile code, loading the submission with ``exec``
instead of an import and calling a Python guard on every attribute access while JAX traces.
Since Python names attributes statically except through ``getattr``-like functions, which the
gate restricts to literals, a name-based static check refuses what those guards would, in the
judge process where the submission cannot touch it, at no cost to the run. Neither catches a
library function that looks attributes up by a computed string internally; that is why such
functions are restricted by name here. Should runtime guards be wanted later, they belong in
``judge.worker.main`` (a RestrictedPython ``compile_restricted`` with a policy allowing
``_``-prefixed names, ``safer_getattr`` extended with this package's refused names, and an
``__import__`` hook with the same allowlist), as a layer behind this one, not instead of it.

The package: this module is its public face (``check``, ``check_file`` and the names below);
``switch`` (on or off, and the warning), ``imports`` (the allowlist and ``module_verdict``),
``names`` (the names refused or allowed on any object), ``visitor`` (the walk over the tree,
with imports, names and annotations), ``attributes``, ``calls`` and ``classes`` (the checks of
attributes, calls and class patterns), ``findings`` (``Finding``, ``summary``) and ``reasons`` (the texts a student reads).
"""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from judge.gate import parsing
from judge.gate.findings import Finding, summary
from judge.gate.imports import (DEFAULT_ALLOWED_IMPORTS, DENIED_MODULE_ATTRIBUTES,
                                DENIED_SUBMODULES, module_verdict)
from judge.gate.names import (HARMLESS_DUNDER_ATTRIBUTES, HARMLESS_DUNDER_STRINGS, MEMBER_NAMES,
                              MODULE_DUNDER_STORES, MODULE_NAMES, NAME_ARGUMENT_BUILTINS,
                              NAME_ARGUMENT_FUNCTIONS, READABLE_DUNDER_NAMES, REFLECTIVE_NAMES,
                              REFLECTIVE_PREFIXES, REFUSED_BUILTINS, SENSITIVE_DUNDERS,
                              SUPER_DUNDERS)
from judge.gate.switch import ENV_VAR, UNPROTECTED, requested, setting, warn_off
from judge.gate.visitor import Gate

__all__ = [
    "check", "check_file", "Finding", "summary", "requested", "setting", "warn_off",
    "module_verdict",
    "ENV_VAR", "UNPROTECTED", "MAX_SOURCE_BYTES", "DEFAULT_ALLOWED_IMPORTS", "DENIED_SUBMODULES",
    "DENIED_MODULE_ATTRIBUTES", "MODULE_NAMES", "MEMBER_NAMES", "REFLECTIVE_NAMES",
    "REFLECTIVE_PREFIXES", "REFUSED_BUILTINS", "NAME_ARGUMENT_BUILTINS", "NAME_ARGUMENT_FUNCTIONS",
    "HARMLESS_DUNDER_ATTRIBUTES", "SUPER_DUNDERS", "READABLE_DUNDER_NAMES", "MODULE_DUNDER_STORES",
    "SENSITIVE_DUNDERS", "HARMLESS_DUNDER_STRINGS",
]

#: A larger file is refused unparsed: no honest solution is near that long (the known ones are
#: under 3 KiB), and the judge's cost of a file it checks (parsing and one walk, linear in the
#: source) stays under half a second and about 30 MB (docs/performance.md, "The source gate's cost").
MAX_SOURCE_BYTES = 128 << 10


def _too_long(size: int) -> list[Finding]:
    return [Finding(1, 0, f"a source file of {size} bytes",
                    f"the judge checks files of up to {MAX_SOURCE_BYTES // 1024} KiB; "
                    f"no solution needs more")]


def check(source: str | bytes, allowed_imports: Sequence[str] | None = None,
          filename: str = "<submission>") -> list[Finding]:
    """Every finding in ``source``, in source order; empty when the gate lets it through.
    Raise SyntaxError (or ValueError) when it does not parse."""
    size = len(source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source)
    if size > MAX_SOURCE_BYTES:
        return _too_long(size)
    tree = parsing.parse(source, filename)
    gate = Gate(tuple(DEFAULT_ALLOWED_IMPORTS if allowed_imports is None else allowed_imports))
    try:
        gate.run(tree)
    except RecursionError:
        return [Finding(1, 0, "code nested this deeply", "the judge cannot check it")]
    unique = {(f.line, f.column, f.construct): f for f in gate.findings}
    return sorted(unique.values(), key=lambda f: (f.line, f.column))


def check_file(path: str | Path, allowed_imports: Sequence[str] | None = None) -> list[Finding] | None:
    """``check`` on a file; None when it does not parse (the worker reports the syntax error)."""
    path = Path(path)
    with path.open("rb") as file:  # read at most one byte more than allowed
        source = file.read(MAX_SOURCE_BYTES + 1)
    if len(source) > MAX_SOURCE_BYTES:
        return _too_long(max(len(source), path.stat().st_size))
    try:
        return check(source, allowed_imports, str(path))
    except (SyntaxError, ValueError):
        return None
    except (RecursionError, MemoryError):  # the parser's own limits on nesting
        return [Finding(1, 0, "code nested this deeply", "the judge cannot check it")]
