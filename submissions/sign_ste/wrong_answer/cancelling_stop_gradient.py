"""The textbook x + stop_gradient(sign(x) - x): derivatives are right, but for large |x| the
subtraction sign(x) - x rounds to -x and the sum cancels to 0 (float32 x = 1e20 gives 0, not 1).

Expected: wrong answer (wrong_value on the large-magnitude cases).
"""
import jax
import jax.numpy as jnp


def ste_quantize(x):
    return x + jax.lax.stop_gradient(jnp.sign(x) - x)
