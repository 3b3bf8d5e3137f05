"""`from jax import custom_vjp` style; the gradient is obtained with jax.grad of
the weighted sum sum(q(x) * cotangent), whose gradient w.r.t. x is exactly the
VJP of q with that cotangent.  The fwd rule also calls the custom_vjp function
itself.

Expected verdict: accepted (the custom bwd rule produces the grads; values are
q(x) computed by the same custom_vjp function).
"""
import jax.numpy as jnp
from jax import custom_vjp, grad


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @custom_vjp
    def q(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def q_fwd(v):
        return q(v), v

    def q_bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0).astype(g.dtype),)

    q.defvjp(q_fwd, q_bwd)

    values = q(x)
    grads = grad(lambda v: jnp.sum(q(v) * cotangent))(x)
    return {"values": values, "grads": grads}
