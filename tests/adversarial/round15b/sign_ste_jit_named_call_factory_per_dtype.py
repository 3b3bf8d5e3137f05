"""sign_ste: a factory builds a ``custom_jvp`` at each call for x's dtype (casting the tangent
to it), wrapped in ``jax.named_call`` and ``jax.jit``; annotations and a module constant.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

NAME = "binarize"


def make_ste(dtype) -> "jax.custom_jvp":
    @jax.custom_jvp
    def f(x: jax.Array) -> jax.Array:
        return jnp.sign(x).astype(dtype)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        return f(x), t.astype(dtype)

    return f


def ste_quantize(x: jax.Array) -> jax.Array:
    return jax.jit(jax.named_call(make_ste(x.dtype), name=NAME))(x)
