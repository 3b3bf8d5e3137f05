"""fake_quant_ste: a ``custom_vjp`` whose primal takes and returns a dict (``{"x": ...}``), the
backward rule returning a one-element tuple holding a dict; the mask kept as residual, the
cotangent pulled back as a dict.

Problem: fake_quant_ste
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    @jax.custom_vjp
    def layer(tree):
        return {"x": scale * jnp.clip(jnp.round(tree["x"] / scale), qmin, qmax)}

    def fwd(tree):
        v = tree["x"] / scale
        return layer(tree), {"mask": (v >= qmin) & (v <= qmax)}

    def bwd(res, g):
        return ({"x": g["x"] * res["mask"]},)

    layer.defvjp(fwd, bwd)
    out, pullback = jax.vjp(layer, {"x": x})
    (grads,) = pullback({"x": cotangent})
    return {"values": out["x"], "grads": grads["x"]}
