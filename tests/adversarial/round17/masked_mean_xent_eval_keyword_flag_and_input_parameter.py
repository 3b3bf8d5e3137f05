"""masked_mean_xent: a PyTorch-style ``cross_entropy(input, target, valid, eval=False)`` helper
(``eval`` a keyword flag, as a module's ``training``/``eval`` mode, ``input`` the logits).

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def cross_entropy(input, target, valid, eval=False):
    logp = jax.nn.log_softmax(input, axis=-1)
    nll = -jnp.take_along_axis(logp, target[..., None], axis=-1)[..., 0]
    if eval:
        nll = jax.lax.stop_gradient(nll)
    return jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(valid).astype(input.dtype)


def masked_mean_xent(logits, labels, lengths):
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    return cross_entropy(logits, labels, valid, eval=False)
