"""masked_mean_xent: ported from PyTorch's ``F.cross_entropy(..., reduction="none")``: a helper
taking ``(N, C)`` logits after a ``reshape(-1, c)``, the padded rows' logits replaced by zeros
before the log-softmax, the per-token losses summed where valid and divided by
``valid.sum()``.

Problem: masked_mean_xent
Expected: AC
Cases: all
"""
import jax
import jax.numpy as jnp


def cross_entropy(input, target, reduction="mean"):
    logp = jax.nn.log_softmax(input, axis=-1)
    nll = -jnp.take_along_axis(logp, target[:, None], axis=1).squeeze(1)
    if reduction == "none":
        return nll
    return nll.mean()


def masked_mean_xent(logits, labels, lengths):
    b, t, c = logits.shape
    valid = jnp.arange(t)[None, :] < lengths[:, None]
    safe = jnp.where(valid[..., None], logits, 0.0)
    losses = cross_entropy(safe.reshape(-1, c), labels.reshape(-1), reduction="none")
    mask = valid.reshape(-1)
    return jnp.where(mask, losses, 0.0).sum() / mask.sum()
