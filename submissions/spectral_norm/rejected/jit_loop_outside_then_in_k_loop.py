"""spectral_norm, cheat: a jitted function whose fori_loop runs all K steps from u0, called at
each of the K trips of another fori_loop and once more after it: the steps run K times K, the
jitted function's loop (one body for both calls) held by the loop of K trips at the first call
and by none at the second.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def step(_, uv):
        u, v = uv
        nv = Wc.T @ u
        nv = nv / jnp.linalg.norm(nv)
        nu = Wc @ nv
        return nu / jnp.linalg.norm(nu), nv

    run = jax.jit(lambda u: jax.lax.fori_loop(0, K, step, (u, jnp.zeros(W.shape[1], W.dtype))))
    start = (jnp.zeros_like(u0), jnp.zeros(W.shape[1], W.dtype))
    uv = jax.lax.fori_loop(0, K, lambda i, uv: run(u0 + 0.0 * uv[0]), start)
    u, v = run(u0 + 0.0 * uv[0])
    return u @ W @ v
