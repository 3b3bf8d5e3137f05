"""loss_and_grads: a module-like ``Linear`` class (no flax) whose ``__call__`` takes the params
and x, a ``CrossEntropy`` class called on logits and labels; ``jax.value_and_grad`` of their
composition.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class Linear:
    def __call__(self, params, x):
        return x @ params["w"] + params["b"]


class CrossEntropy:
    def __init__(self, reduction="mean"):
        self.reduction = reduction

    def __call__(self, logits, labels):
        log_p = logits - jax.nn.logsumexp(logits, axis=-1, keepdims=True)
        nll = -jnp.take_along_axis(log_p, labels[:, None], axis=-1).squeeze(-1)
        return nll.mean() if self.reduction == "mean" else nll.sum()


def loss_and_grads(params, x, y):
    model, criterion = Linear(), CrossEntropy()
    loss, grads = jax.value_and_grad(lambda p: criterion(model(p, x), y))(params)
    return {"loss": loss, "grads": grads}
