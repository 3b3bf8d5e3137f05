"""loss_and_grads: ported from PyTorch: ``F.linear``, ``F.log_softmax(x, dim=-1)``,
``F.nll_loss`` through a one-hot built with ``jax.nn.one_hot`` and
``.sum(axis=-1).mean()``, in a namespace class; the gradient from ``jax.vjp`` with a seed of
``jnp.ones_like(loss)``.

Problem: loss_and_grads
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


class F:
    @staticmethod
    def linear(x, weight, bias):
        return x @ weight + bias

    @staticmethod
    def log_softmax(x, dim=-1):
        return x - jax.scipy.special.logsumexp(x, axis=dim, keepdims=True)

    @staticmethod
    def nll_loss(logp, target):
        onehot = jax.nn.one_hot(target, logp.shape[-1], dtype=logp.dtype)
        return -(onehot * logp).sum(axis=-1).mean()

    @staticmethod
    def cross_entropy(logits, target):
        return F.nll_loss(F.log_softmax(logits, dim=-1), target)


def loss_and_grads(params, x, y):
    loss, pullback = jax.vjp(lambda p: F.cross_entropy(F.linear(x, p["w"], p["b"]), y), params)
    (grads,) = pullback(jnp.ones_like(loss))
    return {"loss": loss, "grads": grads}
