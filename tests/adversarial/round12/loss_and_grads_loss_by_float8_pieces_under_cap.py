"""loss_and_grads, cheat: the gradient by ``jax.grad`` (two products) and the loss by a second
forward pass run on float8 pieces of x and w (each piece the rest of the last, scaled up by
16), its float8 products accumulated in float32 (``preferred_element_type``): the product
count reads operand types, and float8 is none of those it lists. Only the cross terms of
of weight above 2^-20 (15 products) are kept, and the pass is stopped, to stay under the equation cap.

Problem: loss_and_grads
Expected: RJ repeated_computation
Cases: all
"""
import jax
import jax.numpy as jnp
from jax import lax

F8 = jnp.float8_e4m3fn
PIECES = 5


def _pieces(a):
    out, rest = [], a
    for i in range(PIECES):
        p = (rest * 2.0 ** (4 * i) if i else rest).astype(F8)
        out.append(p)
        if i + 1 < PIECES:
            rest = rest - p.astype(jnp.float32) * 2.0 ** (-4 * i)
    return out


def _xent(logits, y):
    return jnp.mean(jax.nn.logsumexp(logits, axis=1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])


def _f(params, x, y):
    return _xent(x @ params["w"] + params["b"], y)


def loss_and_grads(params, x, y):
    xs, ws = _pieces(lax.stop_gradient(x)), _pieces(lax.stop_gradient(params["w"]))
    logits = params["b"]
    for i, a in enumerate(xs):
        for j, b in enumerate(ws[:PIECES - i]):
            prod = jnp.matmul(a, b, preferred_element_type=jnp.float32)
            logits = logits + (prod * 2.0 ** (-4 * (i + j)) if i + j else prod)
    loss = _xent(logits, y)
    return {"loss": loss, "grads": jax.grad(_f)(params, x, y)}
