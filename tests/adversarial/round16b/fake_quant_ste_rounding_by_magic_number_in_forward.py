"""fake_quant_ste: honest code that rounds half to even inside the quantizer by the float32
trick ``(r + 1.5 * 2**23) - 1.5 * 2**23`` (exact for ``|r| < 2**22``, every case's ratio), the
clip and the scale after it.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp

MAGIC = 1.5 * 2.0 ** 23


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    magic = jnp.float32(MAGIC)

    @jax.custom_vjp
    def q(v):
        r = jnp.clip(v / scale, qmin - 1.0, qmax + 1.0)
        whole = (r + magic) - magic
        return scale * jnp.clip(whole, qmin, qmax)

    def fwd(v):
        r = v / scale
        return q(v), (r >= qmin) & (r <= qmax)

    def bwd(mask, g):
        return (jnp.where(mask, g, 0.0),)

    q.defvjp(fwd, bwd)
    values, pb = jax.vjp(q, x)
    return {"values": values, "grads": pb(cotangent)[0]}
