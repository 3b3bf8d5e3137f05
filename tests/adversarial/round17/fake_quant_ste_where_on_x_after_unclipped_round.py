"""fake_quant_ste: the ``jax.custom_vjp`` function rounds without clipping; outside the range
(decided on ``x / scale``, as the mask is) the values are the range's ends, written by ``where``
on ``x``, and the whole thing is differentiated by ``jax.vjp``.

Problem: fake_quant_ste
Expected: AC
Open: RJ grads_not_from_backward: the clip by ``where`` on ``x`` is differentiated with the
  function, a mask chosen by ``x`` outside the rule, which the dataflow cannot tell from a
  rule that passes the cotangent unmasked with the mask applied outside it
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def round_ste(v):
        return scale * jnp.round(v / scale)

    def fwd(v):
        return round_ste(v), v

    def bwd(v, g):
        r = v / scale
        return (jnp.where((r < qmin) | (r > qmax), 0.0, g),)

    round_ste.defvjp(fwd, bwd)

    def quantize(v):
        r = v / scale
        out = round_ste(v)
        out = jnp.where(r > qmax, qmax * scale, out)
        return jnp.where(r < qmin, qmin * scale, out)

    values, pullback = jax.vjp(quantize, x)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads}
