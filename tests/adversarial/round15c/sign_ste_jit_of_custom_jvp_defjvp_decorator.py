"""sign_ste: a ``custom_jvp`` with its rule attached by the ``@_ste.defjvp`` decorator, the entry
point ``jax.jit`` of it assigned at module level (``ste_quantize = jax.jit(_ste)``).

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def _ste(x):
    return jnp.sign(x)


@_ste.defjvp
def _ste_jvp(primals, tangents):
    return _ste(primals[0]), tangents[0]


ste_quantize = jax.jit(_ste)
