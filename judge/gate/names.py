"""The names the source gate refuses or lets through whatever object they are taken from: module
and member names, frame and code attributes, built-ins, the functions that take attribute names
as strings, and the dunder names and attributes a submission may use. See the package docstring
for why."""

from __future__ import annotations

import ast

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
                     "singledispatchmethod", "eval", "exec", "vformat", "make_dataclass"),
                    "it evaluates strings as code or reads attributes named by strings"),
    **dict.fromkeys(("live_arrays", "live_buffers", "live_executables", "get_objects",
                     "get_referrers", "get_referents", "settrace", "setprofile",
                     "currentframe", "globals", "locals"),
                    "it reaches the running program's objects and frames"),
    "breakpoint": "it opens a debugger that runs any code",
    "register": ("an ABC's register() makes isinstance and class patterns true for any type, "
                 "generators and frames included"),
    **dict.fromkeys(("asdict", "astuple"),
                    "it reads the attributes a dataclass's fields name, which are data at run "
                    "time; read the fields you need by name"),
    **dict.fromkeys(("eqns", "source_info", "name_stack", "pretty_print", "as_text",
                     "compiler_ir", "traceback", "runtime_executable", "get_hlo_text",
                     "hlo_modules", "as_serialized_hlo_module_proto"),
                    "it reads traced computations equation by equation, where the judge's own "
                    "markers are"),
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
    # (an ABC's register() and dataclasses' asdict()/astuple() are no built-ins: they are
    # refused where they are reached, as attributes or imports (MEMBER_NAMES); a function of
    # the submission's own with one of those names is its own)
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
#: Dunder attributes a submission may read (never assign or delete), from any object but the
#: class ``type(...)`` gives. ``obj.__call__`` is what calling ``obj`` runs, bound to it: a
#: function, method, method-wrapper or slot wrapper whose own attributes that lead anywhere
#: (``__self__``, ``__func__``, ``__globals__``, ``__objclass__``) are dunders the gate refuses,
#: and calling it does what calling ``obj`` does. On a metaclass it is ``type.__call__``, which
#: builds classes from data like ``type(name, bases, namespace)``: refused on ``type(...)``, and
#: ``type`` itself is refused by name but as ``type(obj)``.
CALLABLE_DUNDER_ATTRIBUTES = frozenset({"__call__"})
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
    # protocols that let an object answer isinstance, class patterns or class creation as it
    # likes, or hand NumPy a raw memory address
    "__instancecheck__", "__subclasscheck__", "__subclasshook__", "__mro_entries__",
    "__prepare__", "__set_name__", "__class_getitem__", "__array_interface__",
    "__array_struct__", "__cuda_array_interface__", "__dlpack__", "__buffer__", "__reduce__",
    "__reduce_ex__", "__setstate__", "__del__",
})
#: Dunder names a class body may assign (``__call__ = forward``, ``__slots__ = (...)``). Any other
#: is refused: ``__annotations__ = {...}`` would make a dataclass's field names, which it writes
#: into code it runs, data the judge cannot check.
CLASS_DUNDER_STORES = frozenset({
    "__slots__", "__hash__", "__doc__", "__call__", "__repr__", "__str__", "__eq__", "__ne__",
    "__lt__", "__le__", "__gt__", "__ge__", "__len__", "__iter__", "__next__", "__getitem__",
    "__contains__", "__bool__", "__add__", "__radd__", "__sub__", "__rsub__", "__mul__",
    "__rmul__", "__truediv__", "__rtruediv__", "__floordiv__", "__mod__", "__pow__", "__neg__",
    "__pos__", "__abs__", "__matmul__", "__rmatmul__", "__array_priority__", "__jax_array__",
})
#: Underscore names that are the public API of named tuples.
NAMEDTUPLE_API = frozenset({"_replace", "_asdict", "_fields", "_make", "_field_defaults"})
#: Built-in types a class pattern may match positionally: ``case int(n)`` binds the subject
#: itself. Any other class reads the attributes its ``__match_args__`` names, which need not
#: be literals the judge can check.
SELF_MATCHING_TYPES = frozenset({"bool", "bytearray", "bytes", "dict", "float", "frozenset",
                                 "int", "list", "set", "str", "tuple"})
#: Class decorators (by import path) that give the class back with the attributes its source
#: names: a class pattern may match positionally on a class of the file's own decorated only with
#: these (``judge.gate.classes``). "dataclass": its annotated names are the pattern's attributes.
CLASS_DECORATORS = {
    "dataclasses.dataclass": "dataclass",
    **dict.fromkeys(("functools.total_ordering", "typing.final",
                     "jax.tree_util.register_pytree_node_class",
                     "jax.tree_util.register_pytree_with_keys_class",
                     "jax.tree_util.register_dataclass", "jax.tree_util.register_static"), "same"),
}
#: Named-tuple factories: their field names become attribute names and ``__match_args__``, so
#: they must be literals the gate checks.
NAMED_TUPLE_FACTORIES = frozenset({"namedtuple", "NamedTuple"})
#: ``jax.debug`` functions that format a template with ``str.format`` (reading the attributes
#: and items its fields name): the template must be a literal with plain fields.
FORMATTING_FUNCTIONS = frozenset({"jax.debug.print", "jax.debug.log"})
#: Class factories that take attribute names as data (the enum functional API sets dunder
#: names from its keys), refused when called with more than one argument.
ENUM_FACTORIES = frozenset({"Enum", "IntEnum", "StrEnum", "Flag", "IntFlag", "ReprEnum"})
#: Strings that may name a dunder.
HARMLESS_DUNDER_STRINGS = HARMLESS_DUNDER_ATTRIBUTES | {"__main__"}


def is_dunder(name: str) -> bool:
    """``__x__``: two underscores on each side of a non-empty name."""
    return len(name) > 4 and name.startswith("__") and name.endswith("__")


def is_reflective(name: str) -> bool:
    """A frame, code, traceback, generator, coroutine or cell attribute."""
    return name in REFLECTIVE_NAMES or name.startswith(REFLECTIVE_PREFIXES)
