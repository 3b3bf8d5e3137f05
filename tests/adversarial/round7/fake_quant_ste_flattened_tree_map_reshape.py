"""fake_quant_ste: the quantizer made by a factory, applied to the flattened x with a flattened
cotangent, and both results reshaped back by ``tree_map`` over the output dict.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def make(scale, qmin, qmax):
    @jax.custom_vjp
    def f(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def f_fwd(x):
        return f(x), x

    def f_bwd(x, g):
        lo = qmin * scale
        hi = qmax * scale
        # qmin <= x/s <= qmax written on x itself, s > 0
        ok = (x / scale >= qmin) & (x / scale <= qmax)
        return (jnp.where(ok, g, jnp.zeros_like(g)),)

    f.defvjp(f_fwd, f_bwd)
    return f


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    f = make(scale, qmin, qmax)
    flat = x.reshape(-1)
    vals, pull = jax.vjp(f, flat)
    (g,) = pull(cotangent.reshape(-1))
    out = {"values": vals, "grads": g}
    return jax.tree_util.tree_map(lambda a: a.reshape(x.shape), out)
