"""spectral_norm: a module-like class (no flax) holding the number of steps, whose
``__call__`` runs the iteration in a ``fori_loop`` on the stopped W and returns sigma; the
function builds one and calls it normally.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class PowerIteration:
    def __init__(self, steps):
        self.steps = steps

    def step(self, W, carry):
        u, _ = carry
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        return u / jnp.linalg.norm(u), v

    def __call__(self, W, u0):
        Wc = jax.lax.stop_gradient(W)
        init = (u0, jnp.zeros((W.shape[1],), W.dtype))
        u, v = jax.lax.fori_loop(0, self.steps, lambda _, c: self.step(Wc, c), init)
        return jnp.dot(u, jnp.dot(W, v))


def spectral_norm(W, u0, K):
    return PowerIteration(K)(W, u0)
