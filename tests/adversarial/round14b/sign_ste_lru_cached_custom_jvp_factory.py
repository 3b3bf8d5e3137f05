"""sign_ste: a ``functools.lru_cache`` factory keyed on the dtype's name that builds a
``custom_jvp`` quantizer as a closure (the JVP rule attached with the ``defjvp`` decorator), and
a docstring-only module helper for the sign as a ``jnp.select``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import functools

import jax
import jax.numpy as jnp


def _sign(x):
    """-1, 0 or +1 in x's dtype."""
    one = jnp.ones_like(x)
    return jnp.select([x > 0, x < 0], [one, -one], jnp.zeros_like(x))


@functools.lru_cache(maxsize=None)
def quantizer(dtype_name: str):
    @jax.custom_jvp
    def q(x):
        return _sign(x)

    @q.defjvp
    def _(primals, tangents):
        return q(primals[0]), tangents[0]

    return q


def ste_quantize(x):
    return quantizer(x.dtype.name)(x)
