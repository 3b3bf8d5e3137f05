"""fake_quant_ste: a ``jax.lax.switch`` whose index is the input's rank minus one (a constant at
trace time, made an array), each branch applying the ``custom_vjp`` quantizer to x (the second
flattening and reshaping it back); ``jax.grad`` of a ``vdot`` with the cotangent.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(x):
        return scale * jnp.clip(jnp.round(x / scale), qmin, qmax)

    def q_fwd(x):
        return q(x), x / scale

    def q_bwd(v, g):
        return (g * ((v >= qmin) & (v <= qmax)),)

    q.defvjp(q_fwd, q_bwd)

    def apply(x):
        branches = [q, lambda x: q(x.reshape(-1)).reshape(x.shape)]
        return jax.lax.switch(jnp.asarray(x.ndim - 1), branches, x)

    values = apply(x)
    grads = jax.grad(lambda x: jnp.vdot(apply(x), cotangent))(x)
    return {"values": values, "grads": grads}
