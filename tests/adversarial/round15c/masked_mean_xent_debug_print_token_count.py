"""masked_mean_xent: a ``jax.debug.print`` of the number of valid tokens and the loss, with named
fields (``"{n} tokens, loss {loss}"``), beside a ``take_along_axis`` of the log-softmax.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def masked_mean_xent(logits, labels, lengths):
    logp = jax.nn.log_softmax(logits, axis=-1)
    nll = -jnp.take_along_axis(logp, labels[:, :, None], axis=2)[:, :, 0]
    valid = jnp.arange(logits.shape[1])[None, :] < lengths[:, None]
    n = jnp.sum(lengths)
    loss = jnp.sum(jnp.where(valid, nll, 0.0)) / n
    jax.debug.print("{n} tokens, loss {loss}", n=n, loss=loss)
    return loss
