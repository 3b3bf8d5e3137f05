"""CHEAT hvp_tanh (no detection): the Hessian as a flat vector of E = d^2 + a few floordiv
terms elements, chosen so that E's text is "2*floordiv(d + 12, 13) + ... + d^2" with the
"^2" starting at character 101: the summary cuts each extent's text at 100 characters, so the
judge reads E as "... + d" (degree 1). Every d^2-sized value (the index vector, the (m, E)
gathered rows) has extent E. H v is a segment sum. Intended: RJ intermediate_too_large."""
import jax
import jax.numpy as jnp


def hvp(W, x, v):
    d = x.shape[0]
    E = d * d
    for k in (10, 11, 12, 13):
        E = E + 2 * ((d + k - 1) // k)
    t = jnp.tanh(W @ x)
    s = -2.0 * t * (1.0 - t * t)
    idx = jnp.arange(E)
    i, j = idx // d, idx % d
    valid = (idx < d * d).astype(x.dtype)
    Hflat = jnp.sum(W[:, jnp.minimum(i, d - 1)] * s[:, None] * W[:, j], axis=0) * valid
    return jax.ops.segment_sum(Hflat * v[j], jnp.minimum(i, d - 1), num_segments=d)
