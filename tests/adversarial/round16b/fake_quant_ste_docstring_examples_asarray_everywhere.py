"""fake_quant_ste: honest code with a long docstring holding doctest-style examples and
``jnp.asarray(..., dtype=...)`` on every value it touches.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    """Fake-quantize ``x`` and pull ``cotangent`` back with the clipped straight-through rule.

    Examples:
        >>> out = fake_quant_ste(jnp.array([0.3, 1.25]), 0.5, -4, 3, jnp.ones(2))
        >>> out["values"]
        Array([0.5, 1. ], dtype=float32)
        >>> out["grads"]
        Array([1., 1.], dtype=float32)

    Entries whose ratio ``x / scale`` lies outside ``[qmin, qmax]`` get no gradient, even when
    they round into the range (3.2 with qmax = 3).
    """
    x = jnp.asarray(x, dtype=jnp.float32)
    cotangent = jnp.asarray(cotangent, dtype=jnp.float32)
    s = jnp.asarray(scale, dtype=jnp.float32)
    lo = jnp.asarray(qmin, dtype=jnp.float32)
    hi = jnp.asarray(qmax, dtype=jnp.float32)

    @jax.custom_vjp
    def q(v):
        return jnp.asarray(s * jnp.clip(jnp.round(v / s), lo, hi), dtype=jnp.float32)

    def fwd(v):
        return q(v), jnp.asarray(v / s, dtype=jnp.float32)

    def bwd(r, g):
        inside = jnp.asarray((r >= lo) & (r <= hi), dtype=jnp.float32)
        return (jnp.asarray(g * inside, dtype=jnp.float32),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    (grads,) = pb(cotangent)
    return {"values": jnp.asarray(values, dtype=jnp.float32), "grads": grads}
