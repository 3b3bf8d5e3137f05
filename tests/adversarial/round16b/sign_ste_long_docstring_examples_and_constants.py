"""sign_ste: honest code with a long docstring holding examples, the zero and one of the input's
dtype as helper constants, and the identity derivative from ``stop_gradient``.

Problem: sign_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

ZERO = 0.0
ONE = 1.0


def ste_quantize(x):
    """Three-valued sign with an identity derivative.

    Examples:
        >>> ste_quantize(jnp.array([-2.0, 0.0, 3.0]))
        Array([-1.,  0.,  1.], dtype=float32)
        >>> jax.grad(lambda v: ste_quantize(v).sum())(jnp.array([5.0]))
        Array([1.], dtype=float32)
    """
    dtype = x.dtype
    one = jnp.asarray(ONE, dtype=dtype)
    zero = jnp.asarray(ZERO, dtype=dtype)
    hard = jnp.where(x > zero, one, jnp.where(x < zero, -one, zero))
    through = x - jax.lax.stop_gradient(x)
    return jnp.asarray(through + jax.lax.stop_gradient(hard), dtype=dtype)
