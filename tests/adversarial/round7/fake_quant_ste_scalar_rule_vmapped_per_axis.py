"""fake_quant_ste: the custom_vjp written for one scalar and mapped with ``jax.vmap`` once per axis
of x (one or two), ``jax.vjp`` through the mapped function.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q1(t):
        return scale * jnp.clip(jnp.round(t / scale), qmin, qmax)

    q1.defvjp(lambda t: (q1(t), t),
              lambda t, g: (jnp.where((t / scale >= qmin) & (t / scale <= qmax), g, 0.0),))

    fn = q1
    for _ in range(x.ndim):
        fn = jax.vmap(fn)
    values, pull = jax.vjp(fn, x)
    return {"values": values, "grads": pull(cotangent)[0]}
