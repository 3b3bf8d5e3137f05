"""fake_quant_ste: residuals a dict of the scaled input and the bounds as arrays; the rule
recomputes the mask from them; the input cast through ``jax.tree_util.tree_map`` before the
call and the gradient read back from a dict.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def q(inputs):
        return scale * jnp.clip(jnp.round(inputs["x"] / scale), qmin, qmax)

    def fwd(inputs):
        res = {"v": inputs["x"] / scale, "lo": jnp.float32(qmin), "hi": jnp.float32(qmax)}
        return q(inputs), res

    def bwd(res, g):
        mask = (res["v"] >= res["lo"]) & (res["v"] <= res["hi"])
        return ({"x": jnp.where(mask, g, 0.0)},)

    q.defvjp(fwd, bwd)
    inputs = jax.tree_util.tree_map(lambda a: a.astype(jnp.float32), {"x": x})
    values, pullback = jax.vjp(q, inputs)
    (grads,) = pullback(cotangent)
    return {"values": values, "grads": grads["x"]}
