"""loss_and_grads: a one-hot as rows of ``jnp.eye(k, dtype=x.dtype)[y]``, the log-sum-exp by
hand with the maximum subtracted (not stopped), under ``jax.jit`` of ``jax.value_and_grad``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def loss_fn(params, x, y):
    w, b = params["w"], params["b"]
    z = x @ w + b
    m = z.max(axis=1, keepdims=True)
    lse = m[:, 0] + jnp.log(jnp.exp(z - m).sum(axis=1))
    target = (jnp.eye(w.shape[1], dtype=x.dtype)[y] * z).sum(axis=1)
    return jnp.sum(lse - target) / x.shape[0]


_step = jax.jit(jax.value_and_grad(loss_fn))


def loss_and_grads(params, x, y):
    loss, grads = _step(params, x, y)
    return dict(loss=loss, grads=grads)
