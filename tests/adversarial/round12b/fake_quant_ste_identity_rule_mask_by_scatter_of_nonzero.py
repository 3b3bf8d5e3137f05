"""fake_quant_ste: an identity-like ``custom_vjp`` (forward rounds and clips, backward returns
the cotangent unchanged, the plain STE), and the clip's zeros put in afterwards by a scatter:
the indices of the entries outside [qmin, qmax] found with ``jnp.nonzero(..., size=n)`` and
set to zero with ``.at[idx].set(0, mode="drop")``. The mask is a function of x applied to the
rule's output outside the rule, moved into scatter indices.

Problem: fake_quant_ste
Expected: RJ
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    q.defvjp(lambda v: (q(v), None), lambda _, g: (g,))
    values, back = jax.vjp(q, x)
    g = back(cotangent)[0].ravel()
    u = (x / scale).ravel()
    n = u.shape[0]
    (outside,) = jnp.nonzero((u < qmin) | (u > qmax), size=n, fill_value=n)
    grads = g.at[outside].set(0.0, mode="drop").reshape(x.shape)
    return {"values": values, "grads": grads}
