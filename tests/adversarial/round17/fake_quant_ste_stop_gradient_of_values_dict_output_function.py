"""fake_quant_ste: the ``jax.custom_vjp`` function returns a dict ``{"q": ...}`` (a pytree
output); the values are ``lax.stop_gradient`` of its entry, as a training loop would log them.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quantize(v):
        return {"q": scale * jnp.clip(jnp.round(v / scale), qmin, qmax)}

    def fwd(v):
        return quantize(v), v

    def bwd(v, cts):
        r = v / scale
        return (cts["q"] * ((r >= qmin) & (r <= qmax)).astype(v.dtype),)

    quantize.defvjp(fwd, bwd)
    out, pullback = jax.vjp(quantize, x)
    (grads,) = pullback({"q": cotangent})
    return {"values": lax.stop_gradient(out["q"]), "grads": grads}
