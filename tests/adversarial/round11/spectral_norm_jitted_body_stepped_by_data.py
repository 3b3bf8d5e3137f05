"""spectral_norm, cheat: a ``lax.while_loop`` whose body is a jitted function passed the
counter's step, a 1 computed from W, and whose bound is 3 whatever K is, tested as ``i < K``
joined with ``i < 3``: reading the step inside the jitted body, the judge must not take a
step computed from the data for a literal one.

Problem: spectral_norm
Expected: RJ unrolled_loop
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.jit
def body(state, one):
    i, Wc, u, _ = state
    v = Wc.T @ u
    v = v / jnp.linalg.norm(v)
    u = Wc @ v
    return i + one, Wc, u / jnp.linalg.norm(u), v


def spectral_norm(W, u0, K):
    Wc = jax.lax.stop_gradient(W)
    one = (jnp.sum(Wc * 0.0) + 1.0).astype(jnp.int32)
    init = (0, Wc, u0, jnp.zeros(W.shape[1], W.dtype))
    _, _, u, v = jax.lax.while_loop(lambda s: (s[0] < K) & (s[0] < 3), lambda s: body(s, one), init)
    return u @ W @ v
