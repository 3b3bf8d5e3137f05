"""fake_quant_ste, passes the source gate: honest values/grads plus 9,998 extra keys of 61
characters, 55 of them U+2028 (escaped to 6 characters by the judge, doubled again by repr and
JSON). Judge: WA wrong_keys whose message lists every key twice; the diff's `got` lists them again.
Measures report amplification (input ~3 MB per message)."""

import jax
import jax.numpy as jnp

_KEYS = [("\u2028" * 55) + f"{i:06d}" for i in range(9990)]


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def quant_fwd(v):
        u = v / scale
        mask = (u >= qmin) & (u <= qmax)
        return scale * jnp.clip(jnp.round(u), qmin, qmax), mask

    def quant_bwd(mask, g):
        return (jnp.where(mask, g, jnp.zeros_like(g)),)

    quant.defvjp(quant_fwd, quant_bwd)

    values, pullback = jax.vjp(quant, x)
    (grads,) = pullback(cotangent)
    out = {k: 0 for k in _KEYS}
    out.update(values=values, grads=grads)
    return out
