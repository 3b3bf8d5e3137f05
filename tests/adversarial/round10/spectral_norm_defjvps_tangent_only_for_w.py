"""spectral_norm: sigma = u^T W v as a ``custom_jvp`` of (W, u, v) with ``defjvps``: the tangent
along W is u^T dW v and the rules for u and v are ``None`` (held constant); u and v come from a
``lax.while_loop`` with a counter.

Problem: spectral_norm
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_jvp
def _bilinear(W, u, v):
    return u @ W @ v


_bilinear.defjvps(lambda dW, ans, W, u, v: u @ dW @ v, None, None)


def spectral_norm(W, u0, K):
    def cond(state):
        return state[0] < K

    def body(state):
        i, u, v = state
        v = W.T @ u
        v = v / jnp.linalg.norm(v)
        u = W @ v
        u = u / jnp.linalg.norm(u)
        return i + 1, u, v

    _, u, v = jax.lax.while_loop(cond, body, (0, u0, jnp.zeros(W.shape[1], W.dtype)))
    return _bilinear(W, u, v)
