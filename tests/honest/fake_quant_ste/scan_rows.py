"""lax.scan over the rows, each row's vjp taken inside the scan body."""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        r = v / scale
        return (jnp.where((r >= qmin) & (r <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    flat_x = x.reshape(-1)
    flat_c = cotangent.reshape(-1)

    def step(count, item):
        xi, ci = item
        yi, pb = jax.vjp(quant, xi)
        return count + 1, (yi, pb(ci)[0])

    _, (ys, gs) = jax.lax.scan(step, 0, (flat_x, flat_c))
    return {"values": ys.reshape(x.shape), "grads": gs.reshape(x.shape)}
