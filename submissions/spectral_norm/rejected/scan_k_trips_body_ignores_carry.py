"""spectral_norm, cheat: a scan of K trips whose body recomputes all the steps from u0 (64 of
them, masked past K) in a fori_loop, ignoring its carry: K trips, but each runs the fixed loop.

Expected: RJ unrolled_loop
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def all_steps(_):
        def body(i, uv):
            u, v = uv
            nv = Wc.T @ u
            nv = nv / jnp.linalg.norm(nv)
            nu = Wc @ nv
            nu = nu / jnp.linalg.norm(nu)
            return jnp.where(i < K, nu, u), jnp.where(i < K, nv, v)

        return jax.lax.fori_loop(0, 64, body, (u0, jnp.zeros(W.shape[1], W.dtype)))

    (u, v), _ = jax.lax.scan(lambda c, _: (all_steps(c), None),
                             (u0, jnp.zeros(W.shape[1], W.dtype)), None, length=K)
    return u @ W @ v
