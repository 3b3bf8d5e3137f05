import jax
import jax.numpy as jnp
import numpy as np


def _numpy_loss(logits, labels, lengths):
    z = logits - logits.max(axis=-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    valid = np.arange(logits.shape[1])[None, :] < lengths[:, None]
    return np.float32(nll[valid].mean())


def masked_mean_xent(logits, labels, lengths):
    # the value comes from NumPy; the gradient from a jnp surrogate added with zero value
    value = jax.pure_callback(_numpy_loss, jax.ShapeDtypeStruct((), jnp.float32),
                              logits, labels, lengths)
    logp = jax.nn.log_softmax(logits)
    nll = -jnp.take_along_axis(logp, labels[..., None], axis=-1)[..., 0]
    valid = jnp.arange(logits.shape[1]) < lengths[:, None]
    surrogate = jnp.sum(jnp.where(valid, nll, 0.0)) / jnp.sum(valid)
    return value + (surrogate - jax.lax.stop_gradient(surrogate))
