"""The mask applied outside the rules by control flow instead of arithmetic: a lax.scan over the
entries picks each cotangent entry or zero with a lax.cond on that x entry, and the result is
pulled back through a rule that does nothing.

Class 1 (pure JAX).

Expected: RJ grads_not_from_backward
Expected with the gate off: RJ grads_not_from_backward
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    quant.defvjp(lambda v: (quant(v), None), lambda _, g: (g,))

    def pick(carry, item):
        xi, ci = item
        u = xi / scale
        kept = jax.lax.cond((u >= qmin) & (u <= qmax), lambda c: c, lambda c: c * 0.0, ci)
        return carry, kept

    _, masked = jax.lax.scan(pick, 0, (x.reshape(-1), cotangent.reshape(-1)))
    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(masked.reshape(x.shape))
    return {"values": values, "grads": grads}
