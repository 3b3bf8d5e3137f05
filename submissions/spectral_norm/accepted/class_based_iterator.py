"""spectral_norm, honest: a small class holding the stopped matrix, its step method run by
fori_loop, norms by jnp.hypot-free sqrt of vdot, sigma returned as float32 via .astype.

Expected: AC
"""
import jax
import jax.numpy as jnp


class PowerIteration:
    def __init__(self, W):
        self.W = jax.lax.stop_gradient(W)

    @staticmethod
    def unit(x):
        return x / jnp.sqrt(jnp.vdot(x, x))

    def step(self, _, uv):
        u, _ = uv
        v = self.unit(self.W.T @ u)
        return self.unit(self.W @ v), v

    def run(self, u0, K):
        return jax.lax.fori_loop(0, K, self.step, (u0, jnp.zeros(self.W.shape[1], jnp.float32)))


def spectral_norm(W, u0, K):
    u, v = PowerIteration(W).run(u0, K)
    return (u @ W @ v).astype(jnp.float32)
