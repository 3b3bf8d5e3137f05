"""The source gate's import allowlist: what a submission may import by default, the parts of
allowed packages that stay refused (and the attribute names they are reached by), and
``module_verdict``, which classifies a dotted module path against an allowlist. See the package
docstring for why each part is refused."""

from __future__ import annotations

from typing import Sequence

#: What a submission may import when the spec gives no ``allowed_imports``.
DEFAULT_ALLOWED_IMPORTS = ("jax", "numpy", "math", "functools", "itertools", "operator",
                           "typing", "dataclasses", "collections", "enum")
#: Parts of allowed packages refused unless a spec's ``allowed_imports`` names them or a module
#: inside them (the most specific entry wins). See the package docstring for why.
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
#: Flags of ``jax.config`` a submission may read as ``jax.config.<flag>`` (never write, call or
#: hold ``jax.config`` itself): the numeric settings code picks a dtype or a precision by. A read
#: changes nothing, and the judge never changes them while a submission runs, so they read the
#: same in every trace and run (``jax_disable_jit``, which it may set, stays refused).
READABLE_CONFIG_FLAGS = frozenset({"jax_enable_x64", "jax_default_matmul_precision",
                                   "jax_numpy_rank_promotion", "jax_numpy_dtype_promotion"})
#: Attribute names refused on any object (unless the attribute path is an import the spec
#: allows): the last part of each denied submodule. ``extend`` is refused only where it is not
#: called (``jax.extend.core``, ``m = x.extend``), so that ``list.extend(...)`` stays allowed.
DENIED_MODULE_ATTRIBUTES = frozenset(
    name.rsplit(".", 1)[1] for name in DENIED_SUBMODULES) - {"extend"}


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


def leads_to_allowed(path: str, allowed: Sequence[str]) -> bool:
    """``path`` is an allowed entry or a package on the way to one (``jax.experimental`` when
    the spec allows ``jax.experimental.sparse``)."""
    return any(_under(entry, path) for entry in allowed)
