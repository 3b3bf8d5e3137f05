"""Primitive names as a spec states them, across the JAX versions the judge supports.

JAX renames primitives from time to time (``pjit`` became ``jit``, ``custom_vjp_call_jaxpr``
became ``custom_vjp_call``, ``remat2`` is shown as ``checkpoint``). A spec names a primitive by
one canonical name; ``spellings`` gives every name it has had, so a rule written today still
holds on an older or newer JAX.

A computation JAX offers under a second primitive is one name too: ``ragged_dot_general``
(``lax.ragged_dot``: the rows of one operand split in groups, each group multiplied by its own
matrix of the other) is a matrix product, so a rule that names ``dot_general`` reads it as one.
With one group it is ``x @ w`` itself; without this, a product the rule counts or types
(a second forward pass, a float32 backward pass) could be written under the other name.

So are the primitives a newer JAX added for what an older one computed with a common one, so
that one program meets the same rule on every supported JAX: from JAX 0.11 ``jnp.log2`` is the
primitive ``log2`` (``log`` divided by log 2 before), and the derivative of ``tanh`` is
``one_minus_square`` (``1 - y * y`` before; ``lax.one_minus_square`` is public too), a square
with a constant taken off. A rule that names ``log`` or ``square`` reads them as those.
"""

from __future__ import annotations

#: canonical name -> every name the primitive has had in a supported JAX version
ALIASES = {
    "jit": ("jit", "pjit", "xla_call"),
    "dot_general": ("dot_general", "ragged_dot_general"),
    "log": ("log", "log2"),
    "square": ("square", "one_minus_square"),
    "custom_vjp_call": ("custom_vjp_call", "custom_vjp_call_jaxpr"),
    "custom_jvp_call": ("custom_jvp_call", "custom_jvp_call_jaxpr"),
    "checkpoint": ("checkpoint", "remat", "remat2"),
    "while": ("while",),
    "scan": ("scan",),
    "cond": ("cond", "switch"),
    "callback": ("pure_callback", "io_callback", "callback", "debug_callback"),
    # JAX names its scatters with a hyphen, which a spec's names do not take
    "scatter_add": ("scatter_add", "scatter-add"),
    "scatter_mul": ("scatter_mul", "scatter-mul"),
    "scatter_min": ("scatter_min", "scatter-min"),
    "scatter_max": ("scatter_max", "scatter-max"),
    "scatter_sub": ("scatter_sub", "scatter-sub"),
}
_CANONICAL = {name: canonical for canonical, names in ALIASES.items() for name in names}


def spellings(name: str) -> tuple[str, ...]:
    """Every name ``name`` (canonical or an older spelling) has had."""
    return ALIASES.get(_CANONICAL.get(name, name), (name,))


def canonical(name: str) -> str:
    return _CANONICAL.get(name, name)


def count(primitives, name: str) -> int:
    """How many equations of ``primitives`` (name -> count) are the primitive ``name``."""
    return sum(primitives.get(spelling, 0) for spelling in spellings(name))


#: Primitives whose computation is not a jaxpr the judge can read (compiled or foreign code): a
#: rule on the program cannot see what happens inside them.
OPAQUE = ("call_exported", "ffi_call", "custom_call", "tpu_custom_call", "mosaic_gpu_call",
          "triton_kernel_call")

#: Primitives that read or write at indices: to ``primitive_dtypes``'s count of data operands,
#: their data operands are their indices computed from floating data (``judge.worker.dataflow``).
INDEXING = frozenset({"gather", "dynamic_slice", "dynamic_update_slice", "scatter", "scatter_add",
                      "scatter_mul", "scatter_min", "scatter_max", "scatter_sub"})
