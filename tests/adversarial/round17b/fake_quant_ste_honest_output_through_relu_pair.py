"""fake_quant_ste, honest: the quantizer wrapped with custom_vjp, its output written back as
``relu(out) - relu(-out)`` (the positive and negative parts recombined) before it is returned.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        r = v / scale
        return q(v), (r >= qmin) & (r <= qmax)

    q.defvjp(fwd, lambda keep, g: (jnp.where(keep, g, jnp.zeros_like(g)),))
    out, back = jax.vjp(q, x)
    values = jax.nn.relu(out) - jax.nn.relu(-out)
    return {"values": values, "grads": back(cotangent)[0]}
