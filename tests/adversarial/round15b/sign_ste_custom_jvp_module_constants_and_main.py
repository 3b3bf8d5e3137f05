"""sign_ste: a student's module: constants in capitals for the three levels, a ``custom_jvp``
whose primal picks them with nested ``jnp.where`` in x's dtype and whose tangent rule returns the
tangent, an assert on the rank, a docstring and an ``if __name__ == "__main__"`` block.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

NEG, ZERO, POS = -1, 0, 1


@jax.custom_jvp
def ste_quantize(x):
    """sign(x) forward, the identity for derivatives."""
    assert x.ndim == 1, "x is one-dimensional"
    pos = jnp.asarray(POS, x.dtype)
    neg = jnp.asarray(NEG, x.dtype)
    zero = jnp.asarray(ZERO, x.dtype)
    return jnp.where(x > 0, pos, jnp.where(x < 0, neg, zero))


@ste_quantize.defjvp
def _ste_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return ste_quantize(x), t


if __name__ == "__main__":
    print(ste_quantize(jnp.array([-2.0, 0.0, 3.0])))
