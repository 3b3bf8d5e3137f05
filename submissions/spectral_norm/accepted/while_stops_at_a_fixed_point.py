"""spectral_norm, honest: a lax.while_loop on (i < K) and "the last step moved u": it stops
early once a step leaves u exactly where it was, where every further step would too, so the
result is the K steps'. stop_gradient on W first.

Expected: AC
"""
import jax
import jax.numpy as jnp


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)

    def body(state):
        i, u, _, _ = state
        v = Wc.T @ u
        v = v / jnp.linalg.norm(v)
        un = Wc @ v
        un = un / jnp.linalg.norm(un)
        return i + 1, un, v, jnp.any(un != u)

    start = (0, u0, jnp.zeros(W.shape[1], W.dtype), jnp.bool_(True))
    _, u, v, _ = jax.lax.while_loop(lambda s: (s[0] < K) & s[3], body, start)
    return u @ W @ v
