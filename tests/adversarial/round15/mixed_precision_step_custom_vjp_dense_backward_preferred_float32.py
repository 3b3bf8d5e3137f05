"""mixed_precision_step, cheat: the dense layer a ``jax.custom_vjp`` whose forward rule is the
float16 ``x @ W + b``, and whose backward rule computes the weights' gradient x^T dz from the
float16 operands with ``preferred_element_type=jnp.float32`` (float32 accumulation, rounded to
float16 after): a float16 product with a float32 result, hidden in a differentiation rule.

Problem: mixed_precision_step
Expected: RJ wrong_precision
Cases: all
"""
import jax
import jax.numpy as jnp


@jax.custom_vjp
def dense(x, w, b):
    return x @ w + b


def _fwd(x, w, b):
    return dense(x, w, b), (x, w)


def _bwd(res, dz):
    x, w = res
    dw = jnp.matmul(x.T, dz, preferred_element_type=jnp.float32).astype(dz.dtype)
    return dz @ w.T, dw, dz.sum(0)


dense.defvjp(_fwd, _bwd)


def mixed_precision_step(params, x, y, loss_scale, good_steps, lr, period):
    h = lambda a: a.astype(jnp.float16)

    def loss(p):
        hid = jnp.tanh(dense(h(x), p["dense"]["w"], p["dense"]["b"]))
        return jnp.mean((hid @ p["out"]["w"] - h(y)) ** 2) * h(loss_scale)

    grads = jax.grad(loss)(jax.tree.map(h, params))
    g = jax.tree.map(lambda a: a.astype(jnp.float32) / loss_scale, grads)
    finite = jnp.all(jnp.array([jnp.isfinite(a).all() for a in jax.tree.leaves(g)]))
    grow = finite & (good_steps + 1 == period)
    return {"params": jax.tree.map(lambda q, d: jnp.where(finite, q - lr * d, q), params, g),
            "loss_scale": jnp.where(finite, jnp.where(grow, 2 * loss_scale, loss_scale), loss_scale / 2),
            "good_steps": jnp.where(finite & ~grow, good_steps + 1, 0).astype(jnp.int32),
            "finite": finite}
