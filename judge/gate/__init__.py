"""The trusted source gate: layer 1 of the judge's defences (SECURITY.md, "Defence layers").

Before a submission runs, the judge process parses its source with ``ast`` and refuses
reflective and process-level access. The source is never executed, compiled to bytecode or
imported here. ``check`` returns the findings (line, column, construct, a short reason); a
submission with findings is never run, and every case gets ``RJ forbidden_construct``
(``judge.grade.grading``). Source that does not parse is left to the worker, which reports
``CE syntax_error`` as before.

What is refused, and why (``README.md`` says it in a student's words):

* imports outside an allowlist: the spec's ``allowed_imports`` (a list that replaces
  ``DEFAULT_ALLOWED_IMPORTS``; a module allows its submodules). ``DENIED_SUBMODULES`` stay
  refused even where their package is allowed, unless the spec names them (or a module inside
  them): they expose JAX internals (``jax.core``, ``jax.interpreters``, ``jax.extend``,
  ``jax.lib``), foreign code or serialized programs (``jax.ffi``, ``jax.export``,
  ``jax.experimental`` with its callbacks and executable deserialization), process-wide
  settings and listeners (``jax.config``, ``jax.monitoring``), files and servers
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
  ``input``, ``help``, ``globals``, ``locals``, ``vars`` (not even as a variable's name), and
  ``getattr``/``setattr``/``delattr``/``hasattr`` except as a direct call with a string
  literal that is itself an allowed attribute; the same for the other functions that take
  attribute names as strings (``operator.attrgetter``/``methodcaller``, the ``assigned`` and
  ``updated`` arguments of ``functools.wraps``/``update_wrapper``, the field lists of
  ``jax.tree_util.register_dataclass``) and for the keyword attributes of ``match`` class
  patterns.
* ``str.format``/``format_map`` with attribute or index access in a field (``"{0.__class__}"``,
  ``"{0[x]}"``), and either called on a string that is not a literal.
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
* files over ``MAX_SOURCE_BYTES`` and code nested too deeply to check.

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
``_``-prefixed names, ``safer_getattr`` extended with this module's refused names, and an
``__import__`` hook with the same allowlist), as a layer behind this one, not instead of it.
"""

from __future__ import annotations

import ast
import os
import string
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from judge.errors import JudgeError

ENV_VAR = "JUDGE_SOURCE_GATE"
#: A larger file is refused unread: no honest solution is that long, and the judge process
#: should not spend its memory parsing one.
MAX_SOURCE_BYTES = 1 << 20

#: What a submission may import when the spec gives no ``allowed_imports``.
DEFAULT_ALLOWED_IMPORTS = ("jax", "numpy", "math", "functools", "itertools", "operator",
                           "typing", "dataclasses", "collections", "enum")
#: Parts of allowed packages refused unless a spec's ``allowed_imports`` names them or a module
#: inside them (the most specific entry wins). See the module docstring for why.
DENIED_SUBMODULES = (
    "jax.experimental", "jax.extend", "jax.ffi", "jax.interpreters", "jax.lib", "jax.core",
    "jax.config", "jax.monitoring", "jax.profiler", "jax.distributed", "jax.export",
    "jax.api_util", "jax.version", "jax.tools", "jax.util", "jax.linear_util",
    "jax.cloud_tpu_init", "jax.collect_profile",
    "numpy.lib", "numpy.ctypeslib", "numpy.testing", "numpy.f2py", "numpy.distutils",
    "numpy.core", "numpy.version", "numpy.conftest", "numpy.typing.mypy_plugin",
    # record and masked arrays build object fields from raw bytes, or reach numpy._core
    # (whose multiarray.scalar does) under public names: np.ma.core.mu, np.matrixlib...N
    "numpy.rec", "numpy.ma", "numpy.matrixlib", "numpy.matlib",
)
#: Attribute names refused on any object (unless the attribute path is an import the spec
#: allows): the last part of each denied submodule. ``extend`` is refused only where it is not
#: called (``jax.extend.core``, ``m = x.extend``), so that ``list.extend(...)`` stays allowed.
DENIED_MODULE_ATTRIBUTES = frozenset(
    name.rsplit(".", 1)[1] for name in DENIED_SUBMODULES) - {"extend"}

#: Modules the judge does not allow, refused as attribute names on any object: what an allowed
#: module imported (``typing.sys``, ``dataclasses.inspect``, ``enum.bltns``,
#: ``jax.version.subprocess``) would otherwise be reachable under these names. Module names
#: that are also common public names of allowed modules (``signal``: ``jax.scipy.signal``;
#: ``select``: ``jnp.select``; ``copy``, ``random``, ``array``) are left out; none of those
#: modules is reachable by attribute from the default allowlist (``tests/test_gate.py``).
MODULE_NAMES = frozenset({
    "sys", "os", "posix", "nt", "gc", "builtins", "bltns", "importlib", "imp", "zipimport",
    "pkgutil", "runpy", "inspect", "ctypes", "cffi", "subprocess", "io", "pathlib", "shutil",
    "tempfile", "glob", "fileinput", "codecs", "socket", "ssl", "http", "urllib", "threading",
    "multiprocessing", "concurrent", "asyncio", "pickle", "cPickle", "marshal", "shelve", "dbm",
    "sqlite3", "copyreg", "types", "resource", "mmap", "weakref", "traceback", "linecache",
    "tokenize", "code", "codeop", "dis", "pdb", "bdb", "tracemalloc", "faulthandler",
    "atexit", "sysconfig", "site", "fcntl", "termios", "pty", "posixpath", "ntpath",
    "genericpath", "zipfile", "tarfile", "gzip", "bz2", "lzma", "selectors", "logging",
    "string", "timeit", "doctest", "unittest", "pydoc", "jaxlib", "xla_client",
})
#: Members that map memory, read or write files, evaluate strings as code, list or trace the
#: process's objects, or open a debugger: refused as attribute names on any object.
MEMBER_NAMES = {
    **dict.fromkeys(("load", "loads", "save", "savez", "savez_compressed", "savetxt",
                     "loadtxt", "genfromtxt", "fromfile", "tofile", "dump", "memmap",
                     "open_memmap", "fromregex", "DataSource", "ctypeslib", "ctypes",
                     "recfromcsv", "recfromtxt", "as_strided", "open", "recarray",
                     "multiarray", "scalar"),
                    "it reads or writes files or raw memory"),
    **dict.fromkeys(("get_type_hints", "ForwardRef", "evaluate_forward_ref", "singledispatch",
                     "singledispatchmethod", "eval", "exec", "vformat"),
                    "it evaluates strings as code or reads attributes named by strings"),
    **dict.fromkeys(("live_arrays", "live_buffers", "live_executables", "get_objects",
                     "get_referrers", "get_referents", "settrace", "setprofile",
                     "currentframe", "globals", "locals"),
                    "it reaches the running program's objects and frames"),
    "breakpoint": "it opens a debugger that runs any code",
}
#: Frame, code, traceback, generator, coroutine and cell attributes (and Python 2 spellings).
REFLECTIVE_NAMES = frozenset({
    "f_back", "f_builtins", "f_code", "f_globals", "f_locals", "f_lasti", "f_lineno", "f_trace",
    "f_trace_lines", "f_trace_opcodes", "f_generator", "tb_frame", "tb_next", "tb_lasti",
    "tb_lineno", "gi_code", "gi_frame", "gi_running", "gi_suspended", "gi_yieldfrom",
    "cr_await", "cr_code", "cr_frame", "cr_origin", "cr_running", "cr_suspended", "ag_await",
    "ag_code", "ag_frame", "ag_running", "cell_contents", "func_globals", "func_code",
    "func_closure", "func_defaults", "func_dict", "im_func", "im_self", "im_class",
})
REFLECTIVE_PREFIXES = ("co_",)

#: Built-ins refused wherever their name appears (call, reference or a variable of that name).
REFUSED_BUILTINS = {
    "eval": "it runs a string as code the judge cannot check",
    "exec": "it runs a string as code the judge cannot check",
    "execfile": "it runs a file as code the judge cannot check",
    "compile": "it turns a string into code the judge cannot check",
    "__import__": "it imports modules around the import check",
    "reload": "it re-runs modules",
    "open": "it reads and writes files",
    "breakpoint": "it opens a debugger that runs any code",
    "input": "it reads the worker's input",
    "help": "it imports modules named by strings",
    "globals": "it exposes a namespace by name",
    "locals": "it exposes a namespace by name",
    "vars": "it exposes an object's namespace by name",
}
#: Built-ins that take an attribute name: allowed only as a direct call with a string literal
#: naming an allowed attribute; the value is the context the name is used in.
NAME_ARGUMENT_BUILTINS = {"getattr": ast.Load, "hasattr": ast.Load, "setattr": ast.Store,
                          "delattr": ast.Del}
#: Library functions that take attribute names as strings, allowed only in the checked forms.
NAME_ARGUMENT_FUNCTIONS = frozenset({"attrgetter", "methodcaller", "wraps", "update_wrapper",
                                     "register_dataclass"})

#: Dunder attributes that are plain strings.
HARMLESS_DUNDER_ATTRIBUTES = frozenset({"__name__", "__qualname__", "__doc__", "__version__"})
#: Dunder methods an honest class calls on ``super()`` (zero arguments only).
SUPER_DUNDERS = frozenset({"__init__", "__post_init__", "__init_subclass__", "__call__",
                           "__repr__", "__str__"})
#: Dunder names a submission may read.
READABLE_DUNDER_NAMES = frozenset({"__name__", "__doc__", "__debug__"})
#: Dunder names a submission may assign at module level.
MODULE_DUNDER_STORES = frozenset({"__all__", "__version__", "__author__", "__doc__"})
#: Dunder names refused even in a class body.
SENSITIVE_DUNDERS = frozenset({
    "__builtins__", "__loader__", "__spec__", "__file__", "__cached__", "__path__",
    "__package__", "__import__", "__dict__", "__class__", "__globals__", "__code__",
    "__closure__", "__match_args__", "__getattribute__",
})
#: Strings that may name a dunder.
HARMLESS_DUNDER_STRINGS = HARMLESS_DUNDER_ATTRIBUTES | {"__main__"}

UNPROTECTED = ("the submission's source is not checked before it runs, so imports outside the "
               "allowlist, reflection (gc, frames, __globals__, getattr with computed names), "
               "eval/exec and file access reach the worker; only the rules measured while "
               "tracing, the result-channel checks and the sandbox stand in their way")

_R_DUNDER = "dunder attributes can reach the judge's own state"
_R_PRIVATE = ("private attributes are another object's internals; only attributes your own "
              "classes set on self or cls may start with '_'")
_R_PRIVATE_SELF = ("only private attributes your own classes set (self._x = ... in a method) "
                   "or define in a class body may be used on self or cls")
_R_REFLECTIVE = "frames, code objects and tracebacks expose the running program's internals"
_R_MODULE_NAME = ("it is the name of a module the judge does not allow, and a static check "
                  "cannot tell which object it is taken from")
_R_DENIED = ("it exposes JAX or NumPy internals, callbacks, files or memory; a problem can "
             "allow it with allowed_imports")
_R_LITERAL_NAME = "the attribute name must be a string literal, so the judge can check it"
_R_FORMAT_FIELD = "format fields with '.' or '[' read attributes and items of the arguments"
_R_FORMAT_LITERAL = "the format string must be a literal, so the judge can check its fields"
_R_STORE_MODULE = ("assigning to or deleting attributes of an imported module or function "
                   "changes code the judge also uses")
_R_DUNDER_NAME = "names like __builtins__ reach the interpreter's internals"
_R_DUNDER_STRING = ("a string naming a dunder or frame attribute can reach it through functions "
                    "that take attribute names")


@dataclass(frozen=True)
class Finding:
    line: int
    column: int        # 0-based, as ``ast`` counts
    construct: str     # what was found: "attribute access '__globals__'", "import of 'os'"
    reason: str        # why it is refused, for a student

    def __str__(self) -> str:
        return f"line {self.line}: {self.construct} is not allowed ({self.reason})"


def summary(findings: Sequence[Finding], limit: int = 5) -> str:
    """The verdict message: the first ``limit`` findings, in source order."""
    text = "; ".join(str(f) for f in findings[:limit])
    more = len(findings) - limit
    return text + (f"; and {more} more" if more > 0 else "")


# --- the switch ---------------------------------------------------------------------------------

def requested(value: bool | str | None = None) -> tuple[bool, str]:
    """Whether the gate is on, and where that came from: ``value`` (``True``/``False`` or
    ``"on"``/``"off"``, as ``--source-gate`` gives it), else ``$JUDGE_SOURCE_GATE``, else on.
    Raise JudgeError on another setting."""
    source = "--source-gate"
    if value is None:
        value, source = os.environ.get(ENV_VAR) or "on", ENV_VAR
    if isinstance(value, bool):
        return value, source
    setting = str(value).strip().lower()
    if setting not in ("on", "off"):
        raise JudgeError(f"{source}: unknown source gate setting {value!r} (choose from on, off)")
    return setting == "on", source


def warn_off(source: str = "--source-gate") -> None:
    """The one-line warning of a run without the gate."""
    where = "--source-gate off" if source == "--source-gate" else f"{ENV_VAR}=off"
    print(f"judge: warning: source gate disabled ({where}): {UNPROTECTED}", file=sys.stderr,
          flush=True)


# --- module rules ---------------------------------------------------------------------------

def _under(path: str, entry: str) -> bool:
    return path == entry or path.startswith(entry + ".")


def module_verdict(path: str, allowed: Sequence[str]) -> str:
    """``"ok"``, ``"private"``, ``"denied"`` (a denied part of an allowed package) or
    ``"not allowed"`` for a dotted module (or member) path."""
    if any(part.startswith("_") for part in path.split(".")):
        return "private"
    best = None
    for entry in allowed:
        if _under(path, entry):
            best = max(best or (0, 0), (len(entry), 1))
    for entry in DENIED_SUBMODULES:
        if _under(path, entry):
            best = max(best or (0, 0), (len(entry), 0))
    if best is None:
        return "not allowed"
    return "ok" if best[1] else "denied"


def _leads_to_allowed(path: str, allowed: Sequence[str]) -> bool:
    """``path`` is an allowed entry or a package on the way to one (``jax.experimental`` when
    the spec allows ``jax.experimental.sparse``)."""
    return any(_under(entry, path) for entry in allowed)


def _dunder(name: str) -> bool:
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def _reflective(name: str) -> bool:
    return name in REFLECTIVE_NAMES or name.startswith(REFLECTIVE_PREFIXES)


# --- the checker ----------------------------------------------------------------------------

_SCOPES = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef,
           ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def check(source: str | bytes, allowed_imports: Sequence[str] | None = None,
          filename: str = "<submission>") -> list[Finding]:
    """Every finding in ``source``, in source order; empty when the gate lets it through.
    Raise SyntaxError (or ValueError) when it does not parse."""
    tree = ast.parse(source, filename)
    gate = _Gate(tuple(DEFAULT_ALLOWED_IMPORTS if allowed_imports is None else allowed_imports))
    try:
        gate.run(tree)
    except RecursionError:
        return [Finding(1, 0, "code nested this deeply", "the judge cannot check it")]
    unique = {(f.line, f.column, f.construct): f for f in gate.findings}
    return sorted(unique.values(), key=lambda f: (f.line, f.column))


def check_file(path: str | Path, allowed_imports: Sequence[str] | None = None) -> list[Finding] | None:
    """``check`` on a file; None when it does not parse (the worker reports the syntax error)."""
    path = Path(path)
    size = path.stat().st_size
    if size > MAX_SOURCE_BYTES:
        return [Finding(1, 0, f"a source file of {size} bytes",
                        f"the judge checks files of up to {MAX_SOURCE_BYTES // 1024} KiB")]
    try:
        return check(path.read_bytes(), allowed_imports, str(path))
    except (SyntaxError, ValueError):
        return None
    except (RecursionError, MemoryError):  # the parser's own limits on nesting
        return [Finding(1, 0, "code nested this deeply", "the judge cannot check it")]


class _Gate(ast.NodeVisitor):
    def __init__(self, allowed: tuple[str, ...]):
        self.allowed = allowed
        self.findings: list[Finding] = []
        self.parents: dict[int, ast.AST] = {}
        self.aliases: dict[str, str] = {}          # local name -> dotted path, from imports
        self.name_functions: dict[str, str] = {}   # local name -> NAME_ARGUMENT_FUNCTIONS entry
        self.method_self: dict[int, str] = {}      # id(method) -> its self/cls parameter
        self.class_private: set[str] = set()       # private names the submission's classes bind
        self.handled: set[int] = set()             # nodes checked by their enclosing call
        self.name_literals: set[int] = set()       # string literals checked as attribute names
        self.inert: set[int] = set()               # docstrings and other unused constants

    # -- set-up ---------------------------------------------------------------------------

    def run(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):
            for child in ast.iter_child_nodes(node):
                self.parents[id(child)] = node
            if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
                self.inert.add(id(node.value))
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.aliases[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.aliases[top] = top
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for alias in node.names:
                    local = alias.asname or alias.name
                    self.aliases[local] = f"{node.module}.{alias.name}"
                    if alias.name in NAME_ARGUMENT_FUNCTIONS:
                        self.name_functions[local] = alias.name
            elif isinstance(node, ast.ClassDef):
                self._scan_class(node)
        self.visit(tree)

    def _scan_class(self, cls: ast.ClassDef) -> None:
        for stmt in cls.body:
            targets = []
            if isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
                targets = [stmt.name]
            elif isinstance(stmt, ast.Assign):
                targets = [n.id for t in stmt.targets for n in ast.walk(t) if isinstance(n, ast.Name)]
            elif isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
                targets = [stmt.target.id]
            self.class_private.update(t for t in targets if t.startswith("_") and not _dunder(t))
            if isinstance(stmt, _FUNCTIONS):
                first = self._self_parameter(stmt)
                if first is None:
                    continue
                self.method_self[id(stmt)] = first
                for node in ast.walk(stmt):
                    if (isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store)
                            and isinstance(node.value, ast.Name) and node.value.id == first
                            and node.attr.startswith("_") and not _dunder(node.attr)):
                        self.class_private.add(node.attr)

    @staticmethod
    def _self_parameter(method) -> str | None:
        """The method's first parameter, if it is a plain method or classmethod and nothing else
        in it binds that name."""
        for deco in method.decorator_list:
            name = deco.id if isinstance(deco, ast.Name) else getattr(deco, "attr", None)
            if name == "staticmethod":
                return None
        params = method.args.posonlyargs + method.args.args
        if not params:
            return None
        first = params[0]
        for node in ast.walk(method):
            if node is first:
                continue
            bound = None
            if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                bound = node.id
            elif isinstance(node, ast.arg):
                bound = node.arg
            elif isinstance(node, (*_FUNCTIONS, ast.ClassDef)) and node is not method:
                bound = node.name
            elif isinstance(node, ast.ExceptHandler):
                bound = node.name
            elif isinstance(node, ast.alias):
                bound = node.asname or node.name.split(".")[0]
            elif isinstance(node, (ast.MatchAs, ast.MatchStar)):
                bound = node.name
            elif isinstance(node, ast.MatchMapping):
                bound = node.rest
            elif isinstance(node, (ast.Global, ast.Nonlocal)) and first.arg in node.names:
                return None
            if bound == first.arg:
                return None
        return first.arg

    # -- helpers ----------------------------------------------------------------------------

    def refuse(self, node, construct: str, reason: str) -> None:
        self.findings.append(Finding(getattr(node, "lineno", 1), getattr(node, "col_offset", 0),
                                     construct, reason))

    def parent(self, node):
        return self.parents.get(id(node))

    def _is_self(self, expr) -> bool:
        """``self`` (or ``type(self)``) in a method whose first parameter it is."""
        if (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
                and expr.func.id == "type" and len(expr.args) == 1 and not expr.keywords):
            expr = expr.args[0]
        if not isinstance(expr, ast.Name):
            return False
        node = self.parent(expr)
        while node is not None:
            if self.method_self.get(id(node)) == expr.id:
                return True
            node = self.parent(node)
        return False

    def _is_super(self, expr) -> bool:
        """``super()``, or ``super(Class, self)`` in a method."""
        return (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name)
                and expr.func.id == "super" and not expr.keywords
                and (not expr.args or (len(expr.args) == 2 and self._is_self(expr.args[1]))))

    def _path(self, expr) -> str | None:
        """The dotted path of an attribute chain rooted at an imported name."""
        if isinstance(expr, ast.Name):
            return self.aliases.get(expr.id)
        if isinstance(expr, ast.Attribute):
            base = self._path(expr.value)
            return f"{base}.{expr.attr}" if base else None
        return None

    def _rooted_at_import(self, expr) -> bool:
        while isinstance(expr, ast.Attribute):
            expr = expr.value
        return isinstance(expr, ast.Name) and expr.id in self.aliases

    def _scope(self, node):
        node = self.parent(node)
        while node is not None and not isinstance(node, _SCOPES):
            node = self.parent(node)
        return node

    def _binding_name(self, node, name: str | None) -> None:
        """A name the submission binds (parameter, function, import alias, handler...)."""
        if name is None:
            return
        if name in REFUSED_BUILTINS:
            self.refuse(node, f"the name '{name}'", f"it is the built-in {name}(): "
                        f"{REFUSED_BUILTINS[name]}; rename your variable if it is your own")
        elif name in NAME_ARGUMENT_BUILTINS:
            self.refuse(node, f"the name '{name}'", f"it is the built-in {name}(); rename your "
                                                    f"variable if it is your own")

    # -- imports ----------------------------------------------------------------------------

    def _module_problem(self, path: str) -> str | None:
        verdict = module_verdict(path, self.allowed)
        if verdict == "ok":
            return None
        if verdict == "private":
            return "private modules are internals"
        if verdict == "denied":
            return _R_DENIED
        return f"this problem allows imports from {', '.join(self.allowed) or 'no module'} only"

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            problem = self._module_problem(alias.name)
            if problem:
                self.refuse(node, f"import of '{alias.name}'", problem)
            self._binding_name(node, alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        module = node.module or ""
        if node.level:
            self.refuse(node, f"the relative import 'from {'.' * node.level}{module}'",
                        "a submission is a single file")
            return
        if module == "__future__":
            return
        problem = None if _leads_to_allowed(module, self.allowed) else self._module_problem(module)
        if problem:
            self.refuse(node, f"import from '{module}'", problem)
            return
        for alias in node.names:
            if alias.name == "*":
                self.refuse(node, f"'from {module} import *'",
                            "it hides which names are used, so the judge cannot check them")
                continue
            full = f"{module}.{alias.name}"
            if not _leads_to_allowed(full, self.allowed):
                problem = self._module_problem(full)
                if problem:
                    self.refuse(node, f"'from {module} import {alias.name}'", problem)
                    continue
                self._check_attribute_name(node, alias.name, construct=f"'from {module} "
                                           f"import {alias.name}'", is_self=False)
            self._binding_name(node, alias.asname or alias.name)

    # -- names ----------------------------------------------------------------------------

    def visit_Name(self, node: ast.Name) -> None:
        name = node.id
        if name in REFUSED_BUILTINS:
            self.refuse(node, f"the name '{name}'", REFUSED_BUILTINS[name] + (
                "" if isinstance(node.ctx, ast.Load) else "; rename your variable"))
        elif name in NAME_ARGUMENT_BUILTINS and id(node) not in self.handled:
            self.refuse(node, f"'{name}' used other than as a direct call",
                        f"only {name}(obj, 'name'{', value' if name == 'setattr' else ''}) "
                        f"with a string literal is allowed, so the judge can check the name")
        elif name in self.name_functions and id(node) not in self.handled \
                and not self._decorator_use(node, self.name_functions[name]):
            self.refuse(node, f"'{name}' used other than as a checked call",
                        _R_LITERAL_NAME)
        elif _dunder(name):
            self._dunder_name(node)

    def _dunder_name(self, node: ast.Name) -> None:
        name, scope = node.id, self._scope(node)
        if isinstance(node.ctx, ast.Load):
            if name in READABLE_DUNDER_NAMES:
                return
            if isinstance(scope, ast.ClassDef) and name in self._class_body_names(scope):
                return
        elif isinstance(scope, ast.Module) and name in MODULE_DUNDER_STORES:
            return
        elif isinstance(scope, ast.ClassDef) and name not in SENSITIVE_DUNDERS:
            return
        self.refuse(node, f"the name '{name}'", _R_DUNDER_NAME)

    @staticmethod
    def _class_body_names(cls: ast.ClassDef) -> set[str]:
        names = set()
        for stmt in cls.body:
            if isinstance(stmt, (*_FUNCTIONS, ast.ClassDef)):
                names.add(stmt.name)
            elif isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                names.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
        return names

    def visit_arg(self, node: ast.arg) -> None:
        self._binding_name(node, node.arg)
        if node.annotation is not None:
            self._annotation(node.annotation)

    def _function(self, node) -> None:
        self._binding_name(node, node.name)
        for deco in node.decorator_list:
            self.visit(deco)
        self.visit(node.args)
        if getattr(node, "returns", None) is not None:
            self._annotation(node.returns)
        for stmt in node.body:
            self.visit(stmt)

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._binding_name(node, node.name)
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        self.visit(node.target)
        self._annotation(node.annotation)
        if node.value is not None:
            self.visit(node.value)

    def _annotation(self, node, depth: int = 0) -> None:
        """Annotations are code too, and so are the strings in them (``typing`` can evaluate
        them): each string must parse as an expression the gate allows."""
        self.visit(node)
        data = set()  # Literal["..."] values and Annotated[...] metadata are data, not types
        for sub in ast.walk(node):
            if isinstance(sub, ast.Subscript):
                head = getattr(sub.value, "id", getattr(sub.value, "attr", None))
                if head == "Literal":
                    data.update(id(c) for c in ast.walk(sub.slice))
                elif head == "Annotated" and isinstance(sub.slice, ast.Tuple):
                    data.update(id(c) for e in sub.slice.elts[1:] for c in ast.walk(e))
        for const in ast.walk(node):
            if (isinstance(const, ast.Constant) and isinstance(const.value, str)
                    and id(const) not in data):
                try:
                    expr = ast.parse(const.value.strip(), mode="eval").body
                except SyntaxError:
                    self.refuse(const, f"the string annotation {const.value[:40]!r}",
                                "a string annotation must be a Python expression the judge can check")
                    continue
                if depth >= 3:
                    self.refuse(const, "a string annotation nested this deeply",
                                "the judge cannot check it")
                    continue
                for sub in ast.walk(expr):
                    if hasattr(sub, "lineno"):
                        sub.lineno, sub.col_offset = const.lineno, const.col_offset
                    for child in ast.iter_child_nodes(sub):
                        self.parents[id(child)] = sub
                self.parents[id(expr)] = self.parent(const)
                self._annotation(expr, depth + 1)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        self._binding_name(node, node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node) -> None:
        self._binding_name(node, node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node) -> None:
        self._binding_name(node, node.name)

    def visit_MatchMapping(self, node) -> None:
        self._binding_name(node, node.rest)
        self.generic_visit(node)

    def visit_MatchClass(self, node) -> None:
        for attr in node.kwd_attrs:  # read from the subject with getattr
            self._check_attribute_name(node, attr, construct=f"the class pattern attribute '{attr}'",
                                       is_self=False)
        self.generic_visit(node)

    def visit_Global(self, node) -> None:
        for name in node.names:
            self._binding_name(node, name)

    visit_Nonlocal = visit_Global

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if not isinstance(value, str) or id(node) in self.inert or id(node) in self.name_literals:
            return
        if (_dunder(value) and value not in HARMLESS_DUNDER_STRINGS) or _reflective(value):
            self.refuse(node, f"the string '{value}'", _R_DUNDER_STRING)

    # -- attributes -------------------------------------------------------------------------

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self._check_attribute(node)
        self.visit(node.value)

    def _check_attribute(self, node: ast.Attribute, construct: str | None = None) -> None:
        attr = node.attr
        construct = construct or f"attribute access '{attr}'"
        value = node.value
        if _dunder(attr):
            if attr in HARMLESS_DUNDER_ATTRIBUTES:
                pass
            elif attr in SUPER_DUNDERS and self._is_super(value):
                return
            else:
                self.refuse(node, construct, _R_DUNDER)
                return
        path = self._path(value)
        full = f"{path}.{attr}" if path else None
        explicit = full is not None and (
            full in self.allowed
            or (_leads_to_allowed(full, self.allowed) and isinstance(self.parent(node), ast.Attribute)
                and self.parent(node).value is node))
        if full is not None and not explicit and module_verdict(full, self.allowed) == "denied":
            if module_verdict(path, self.allowed) != "denied" or _leads_to_allowed(path, self.allowed):
                # reported once, where the denied part starts
                self.refuse(node, f"'{full}'", _R_DENIED)
            return
        if not explicit and not _dunder(attr):
            if not self._check_attribute_name(node, attr, construct, self._is_self(value)):
                return
            call = self.parent(node)
            if attr == "extend" and not (isinstance(call, ast.Call) and call.func is node):
                self.refuse(node, f"{construct} other than as a call (list.extend(...))",
                            _R_DENIED)
                return
        if attr in ("format", "format_map") and isinstance(node.ctx, ast.Load):
            self._check_format(node)
        if attr in NAME_ARGUMENT_FUNCTIONS and id(node) not in self.handled \
                and not self._decorator_use(node, attr):
            self.refuse(node, f"'{attr}' used other than as a checked call", _R_LITERAL_NAME)
        if not isinstance(node.ctx, ast.Load) and self._rooted_at_import(value):
            self.refuse(node, f"{'deleting' if isinstance(node.ctx, ast.Del) else 'assigning'} "
                              f"'{ast.unparse(node)}'", _R_STORE_MODULE)

    def _check_attribute_name(self, node, attr: str, construct: str, is_self: bool) -> bool:
        """Refuse ``attr`` by its name alone (unknown object); True when it passes."""
        if _dunder(attr):
            if attr in HARMLESS_DUNDER_ATTRIBUTES:
                return True
            self.refuse(node, construct, _R_DUNDER)
        elif attr.startswith("_"):
            if is_self and attr in self.class_private:
                return True
            self.refuse(node, construct, _R_PRIVATE_SELF if is_self else _R_PRIVATE)
        elif _reflective(attr):
            self.refuse(node, construct, _R_REFLECTIVE)
        elif attr in MODULE_NAMES:
            self.refuse(node, construct, _R_MODULE_NAME)
        elif attr in DENIED_MODULE_ATTRIBUTES:
            self.refuse(node, construct, _R_DENIED)
        elif attr in MEMBER_NAMES:
            self.refuse(node, construct, MEMBER_NAMES[attr])
        else:
            return True
        return False

    def _decorator_use(self, node, function: str) -> bool:
        """``@jax.tree_util.register_dataclass`` (fields inferred from a dataclass) is safe."""
        parent = self.parent(node)
        return (function == "register_dataclass" and parent is not None
                and node in getattr(parent, "decorator_list", ()))

    def _check_format(self, node: ast.Attribute) -> None:
        value, call = node.value, self.parent(node)
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            self._format_fields(node, value.value)
            return
        if (isinstance(value, ast.Name) and value.id == "str" and isinstance(call, ast.Call)
                and call.func is node and call.args and isinstance(call.args[0], ast.Constant)
                and isinstance(call.args[0].value, str)):
            self._format_fields(node, call.args[0].value)
            return
        self.refuse(node, f"'.{node.attr}' on a string that is not a literal", _R_FORMAT_LITERAL)

    def _format_fields(self, node, text: str, depth: int = 0) -> None:
        try:
            parsed = list(string.Formatter().parse(text))
        except ValueError:
            self.refuse(node, f"the format string {text[:40]!r}", "it is malformed")
            return
        for _, field, spec, _ in parsed:
            if field is not None and ("." in field or "[" in field):
                self.refuse(node, f"the format field '{{{field}}}'", _R_FORMAT_FIELD)
            if spec and "{" in spec and depth < 3:
                self._format_fields(node, spec, depth + 1)

    # -- calls ------------------------------------------------------------------------------

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id in NAME_ARGUMENT_BUILTINS \
                and func.id not in self.aliases:
            self.handled.add(id(func))
            self._name_argument_builtin(node, func.id)
            return
        function = (func.attr if isinstance(func, ast.Attribute) else
                    self.name_functions.get(func.id) if isinstance(func, ast.Name) else None)
        if function in NAME_ARGUMENT_FUNCTIONS:
            self.handled.add(id(func))
            self._name_argument_function(node, function)
        self._raw_memory_array(node)
        self.generic_visit(node)

    def _raw_memory_array(self, node: ast.Call) -> None:
        """``np.ndarray(shape, dtype, buffer)`` (and ``type(arr)(...)``, ``np.recarray``) builds
        an array over raw bytes, and with an object dtype those bytes become object references:
        an address turned into any object. Refused in the spellings a static check can see."""
        func = node.func
        callee = getattr(func, "attr", getattr(func, "id", None))
        constructor = callee in ("ndarray", "recarray") or (
            isinstance(func, ast.Call) and getattr(func.func, "id", None) == "type")
        keywords = {k.arg for k in node.keywords}
        if keywords & {"buffer", "buf"} or (constructor and (
                len(node.args) >= 3 or None in keywords
                or any(isinstance(a, ast.Starred) for a in node.args))):
            self.refuse(node, "an array built over a buffer",
                        "with an object dtype its raw bytes become references to any object")

    def _name_argument_builtin(self, node: ast.Call, name: str) -> None:
        args = node.args
        literal = (len(args) >= 2 and not node.keywords
                   and not any(isinstance(a, ast.Starred) for a in args[:2])
                   and isinstance(args[1], ast.Constant) and isinstance(args[1].value, str))
        if not literal:
            self.refuse(node, f"{name}() with a computed attribute name", _R_LITERAL_NAME)
        else:
            self.name_literals.add(id(args[1]))
            synthetic = ast.Attribute(value=args[0], attr=args[1].value,
                                      ctx=NAME_ARGUMENT_BUILTINS[name]())
            ast.copy_location(synthetic, node)
            self.parents[id(synthetic)] = self.parent(node)
            self._check_attribute(synthetic, f"{name}(..., {args[1].value!r})")
        for arg in args:
            self.visit(arg)
        for keyword in node.keywords:
            self.visit(keyword)

    def _literal_names(self, node, values, function: str) -> None:
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                self.name_literals.add(id(value))
                for part in value.value.split(".") if function == "attrgetter" else [value.value]:
                    self._check_attribute_name(value, part, f"{function}({value.value!r})",
                                               is_self=False)
            else:
                self.refuse(value, f"{function}() with a computed attribute name", _R_LITERAL_NAME)

    def _name_argument_function(self, node: ast.Call, function: str) -> None:
        args, keywords = node.args, node.keywords
        if function == "attrgetter":
            self._literal_names(node, args, function)
            if keywords or not args:
                self.refuse(node, "attrgetter() without literal names", _R_LITERAL_NAME)
        elif function == "methodcaller":
            self._literal_names(node, args[:1], function)
            if not args:
                self.refuse(node, "methodcaller() without a literal name", _R_LITERAL_NAME)
        elif function in ("wraps", "update_wrapper"):
            positional = 1 if function == "wraps" else 2
            if len(args) > positional or any(k.arg in ("assigned", "updated", None) for k in keywords):
                self.refuse(node, f"{function}() with assigned or updated attribute names",
                            "the judge allows only the default attribute lists")
        elif function == "register_dataclass":
            fields = list(args[1:]) + [k.value for k in keywords
                                       if k.arg in ("data_fields", "meta_fields", "drop_fields")]
            if any(k.arg is None for k in keywords) or any(isinstance(a, ast.Starred) for a in args):
                self.refuse(node, "register_dataclass() with unpacked arguments", _R_LITERAL_NAME)
            for value in fields:
                if isinstance(value, (ast.List, ast.Tuple)):
                    self._literal_names(node, value.elts, function)
                elif not (isinstance(value, ast.Constant) and value.value is None):
                    self.refuse(value, "register_dataclass() with computed field names",
                                _R_LITERAL_NAME)
