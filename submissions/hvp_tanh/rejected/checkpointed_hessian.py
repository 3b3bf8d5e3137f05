"""The full Hessian inside jax.checkpoint (remat), whose body is a nested program.

Expected verdict: rejected (an intermediate of d * d elements).
"""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    @jax.checkpoint
    def via_hessian(z, direction):
        return jax.hessian(lambda u: jnp.sum(jnp.tanh(W @ u)))(z) @ direction

    return via_hessian(x, v)
