"""spectral_norm, honest: a jax.custom_jvp function built per call around K (a closure, no
nondiff_argnums), the rule u . dW v, the iteration a scan with no xs and length=K.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    def iterate(W):
        def step(carry, _):
            u, _ = carry
            v = W.T @ u
            v = v / jnp.linalg.norm(v)
            u = W @ v
            return (u / jnp.linalg.norm(u), v), None

        (u, v), _ = jax.lax.scan(step, (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K)
        return u, v

    @jax.custom_jvp
    def sigma(W):
        u, v = iterate(W)
        return u @ W @ v

    @sigma.defjvp
    def sigma_jvp(primals, tangents):
        (W,), (dW,) = primals, tangents
        u, v = iterate(W)
        return u @ W @ v, u @ dW @ v

    return sigma(W)
