import jax
import jax.numpy as jnp
from jax import lax


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    lo, hi = float(qmin), float(qmax)

    def forward(x):
        return scale * lax.clamp(lo, lax.round(x / scale, lax.RoundingMethod.TO_NEAREST_EVEN), hi)

    ste = jax.custom_vjp(forward)
    ste.defvjp(lambda x: (forward(x), x / scale),
               lambda r, g: (g * jnp.logical_and(lo <= r, r <= hi),))
    values, pull = jax.vjp(ste, x)
    (grads,) = pull(cotangent)
    return {"values": values, "grads": grads}
