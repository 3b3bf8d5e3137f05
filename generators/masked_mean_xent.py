"""Case generator for masked_mean_xent (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"logits": (b, t, c) float32, "labels": (b, t) int32, "lengths": (b,) int32},
  "probe": {"cotangent": float32 scalar}, "note": str}``; ``rng`` is a
  ``numpy.random.Generator`` seeded from (seed, family, index), the only source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the loss and its gradient with respect
  to the logits (``{"value": ..., "vjp": {"logits": ...}}``) computed another legitimate way in
  NumPy. A candidate on which one of them disagrees with the reference beyond the tolerance is
  rejected as ambiguous.

Position (i, j) is valid when j < lengths[i]; the loss is the mean over the valid positions of
-log softmax(logits[i, j])[labels[i, j]], its gradient cotangent * (softmax - one_hot) / count
at the valid positions and exactly zero at the padded ones. The families place the mistakes
where they show: lengths that differ (a mean per sequence, a division by b or by b * t), padded
positions right after each sequence (a mask off by one), valid logits past exp's range in
float32 (above 88.7 an exp overflows; far below the row's maximum a probability underflows to
zero), and padded positions holding logits of magnitude 1e3 to 1e4 (any NaN or infinity there
that a mask multiplies or selects away still reaches the gradient). Valid logits stay within
+-200 so that every stable formulation agrees to the tolerance; logits are rounded to two
decimals so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32
I32 = np.int32

COTANGENTS = (1.0, 0.5, 2.0, -1.0, 3.0, -0.25)


def _round(values, digits=2):
    return np.round(values, digits).astype(F32)


def _lengths(rng, b, t, spread=False):
    """Lengths in [1, t]; with spread, the shortest is 1 and the longest t when b > 1."""
    n = rng.integers(1, t + 1, size=b)
    if spread and b > 1 and t > 1:
        first, second = rng.choice(b, size=2, replace=False)
        n[first], n[second] = 1, t
    return n.astype(I32)


def _valid(lengths, t):
    return np.arange(t)[None, :] < np.asarray(lengths)[:, None]


def _case(rng, logits, labels, lengths, note):
    b, t, c = logits.shape
    cot = F32(COTANGENTS[int(rng.integers(len(COTANGENTS)))])
    valid = _valid(lengths, t)
    return {"input": {"logits": _round(logits), "labels": labels.astype(I32),
                      "lengths": lengths.astype(I32)},
            "probe": {"cotangent": np.asarray(cot, F32)},
            "note": f"{note}; b {b}, t {t}, c {c}, lengths {list(map(int, lengths))}, "
                    f"{int(valid.sum())} of {b * t} positions valid"}


def _draw(rng, b, t, c, scale=3.0, spread=False):
    logits = rng.normal(size=(b, t, c)) * scale
    labels = rng.integers(0, c, size=(b, t))
    return logits, labels, _lengths(rng, b, t, spread)


def mixed(rng):
    """b from 2 to 8, t from 2 to 16, c from 2 to 12, logits N(0, 3^2): ordinary data with
    lengths from 1 to t, the shortest 1 and the longest t."""
    b, t, c = int(rng.integers(2, 9)), int(rng.integers(2, 17)), int(rng.integers(2, 13))
    logits, labels, lengths = _draw(rng, b, t, c, spread=True)
    return _case(rng, logits, labels, lengths, "mixed lengths")


def ragged(rng):
    """Every sequence a different length where possible (a mean per sequence then over the
    batch weighs short sequences more), none full, so the position after each end is padded."""
    b, t, c = int(rng.integers(2, 9)), int(rng.integers(4, 17)), int(rng.integers(2, 9))
    logits, labels, _ = _draw(rng, b, t, c, scale=2.0)
    pool = np.arange(1, t)
    lengths = rng.choice(pool, size=b, replace=b > len(pool)).astype(I32)
    return _case(rng, logits, labels, lengths, "ragged lengths, none full")


def huge_padding(rng):
    """Valid logits N(0, 2^2), padded logits of magnitude 1e3 to 1e4 with arbitrary labels:
    exp overflows or underflows there, and only a computation that never makes a NaN or an
    infinity at the padded positions has a finite, zero gradient there."""
    b, t, c = int(rng.integers(1, 9)), int(rng.integers(2, 17)), int(rng.integers(2, 9))
    logits, labels, lengths = _draw(rng, b, t, c, scale=2.0, spread=True)
    lengths = np.minimum(lengths, t - 1).astype(I32)
    sign = rng.choice([-1.0, 1.0], size=(b, t, c))
    huge = sign * rng.uniform(1000.0, 10000.0, size=(b, t, c))
    padded = ~_valid(lengths, t)
    logits = np.where(padded[..., None], huge, logits)
    return _case(rng, logits, labels, lengths, "huge padded logits")


def large_valid(rng):
    """Valid rows shifted by +90 to +150 (exp overflows in float32) or by -150 to -100 (every
    exp underflows to zero), the spread inside a row up to about 120 (a probability far below
    the maximum underflows too)."""
    b, t, c = int(rng.integers(1, 7)), int(rng.integers(1, 11)), int(rng.integers(2, 9))
    logits, labels, lengths = _draw(rng, b, t, c, scale=float(rng.choice([3.0, 30.0])))
    shift = rng.choice([1.0, -1.0], size=(b, t, 1)) * rng.uniform(90.0, 150.0, size=(b, t, 1))
    shift = np.where(shift < 0, np.minimum(shift, -100.0), shift)
    logits = np.clip(logits + shift, -200.0, 200.0)
    return _case(rng, logits, labels, lengths, "large valid logits")


def far_below_max(rng):
    """One class per row 100 to 180 above the others, the label often another one: its
    probability underflows to zero in float32, so log(softmax) is -inf where log_softmax is
    finite."""
    b, t, c = int(rng.integers(1, 7)), int(rng.integers(1, 11)), int(rng.integers(2, 9))
    logits, labels, lengths = _draw(rng, b, t, c, scale=2.0)
    top = rng.integers(0, c, size=(b, t))
    boost = rng.uniform(100.0, 180.0, size=(b, t))
    logits[np.arange(b)[:, None], np.arange(t)[None, :], top] += boost
    return _case(rng, logits, labels, lengths, "labels far below the maximum")


def confident(rng):
    """The label is the maximum by a margin of 5 to 15: losses near zero (the absolute
    tolerance matters), and a few mistakes in between."""
    b, t, c = int(rng.integers(1, 9)), int(rng.integers(1, 13)), int(rng.integers(2, 11))
    logits, labels, lengths = _draw(rng, b, t, c, scale=1.0, spread=True)
    margin = rng.uniform(5.0, 15.0, size=(b, t))
    right = rng.random((b, t)) < 0.8
    idx = (np.arange(b)[:, None], np.arange(t)[None, :], labels)
    logits[idx] = np.where(right, np.max(logits, axis=-1) + margin, logits[idx])
    return _case(rng, logits, labels, lengths, "confident predictions")


def short_sequences(rng):
    """Lengths 1 or 2 in a long padded batch (t from 8 to 16): most positions are padding."""
    b, t, c = int(rng.integers(2, 9)), int(rng.integers(8, 17)), int(rng.integers(2, 7))
    logits, labels, _ = _draw(rng, b, t, c)
    lengths = rng.integers(1, 3, size=b).astype(I32)
    return _case(rng, logits, labels, lengths, "short sequences")


def full_lengths(rng):
    """Every length t: nothing padded, the mask is all true (a mask ignored is right here)."""
    b, t, c = int(rng.integers(1, 7)), int(rng.integers(1, 9)), int(rng.integers(2, 9))
    logits, labels, _ = _draw(rng, b, t, c)
    return _case(rng, logits, labels, np.full(b, t, I32), "no padding")


def many_classes(rng):
    """c from 20 to 32 with small b and t."""
    b, t, c = int(rng.integers(1, 4)), int(rng.integers(1, 6)), int(rng.integers(20, 33))
    logits, labels, lengths = _draw(rng, b, t, c, spread=True)
    return _case(rng, logits, labels, lengths, "many classes")


def largest(rng):
    """b = 8 and t = 16, the largest batch, with c from 2 to 4 and mixed lengths."""
    b, t, c = 8, 16, int(rng.integers(2, 5))
    logits, labels, lengths = _draw(rng, b, t, c, spread=True)
    return _case(rng, logits, labels, lengths, "largest batch")


FAMILIES = {"mixed": mixed, "ragged": ragged, "huge_padding": huge_padding,
            "large_valid": large_valid, "far_below_max": far_below_max,
            "confident": confident, "short_sequences": short_sequences,
            "full_lengths": full_lengths, "many_classes": many_classes,
            "largest": largest}


def _parts(inputs, probe, dtype):
    z = np.asarray(inputs["logits"], dtype)
    y = np.asarray(inputs["labels"], np.int64)
    n = np.asarray(inputs["lengths"], np.int64)
    cot = dtype(np.asarray(probe.get("cotangent", 1.0)))
    return z, y, n, cot


def float64_log_softmax(inputs, probe):
    """log-softmax in float64 (maximum subtracted), boolean indexing of the valid positions,
    their mean; the gradient (softmax - one_hot) * cotangent / count at the valid ones."""
    z, y, n, cot = _parts(inputs, probe, np.float64)
    b, t, c = z.shape
    valid = _valid(n, t)
    shifted = z - z.max(axis=-1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=-1, keepdims=True))
    nll = -np.take_along_axis(logp, y[..., None], axis=-1)[..., 0]
    count = valid.sum()
    grad = (np.exp(logp) - np.eye(c)[y]) * (cot / count)
    grad[~valid] = 0.0
    return {"value": np.asarray(nll[valid].mean(), F32), "vjp": {"logits": grad.astype(F32)}}


def float32_logsumexp(inputs, probe):
    """In float32: logsumexp(z) - z[label] per valid position (only those computed), summed
    in order and divided by the count; the gradient from exp(z - logsumexp)."""
    z, y, n, cot = _parts(inputs, probe, F32)
    b, t, c = z.shape
    total, count = F32(0), 0
    grad = np.zeros_like(z)
    for i in range(b):
        for j in range(int(n[i])):
            row = z[i, j]
            m = row.max()
            lse = F32(m + np.log(np.exp(row - m).sum(dtype=F32)))
            total = F32(total + (lse - row[y[i, j]]))
            grad[i, j] = np.exp(row - lse)
            grad[i, j, y[i, j]] -= F32(1)
            count += 1
    grad *= cot / F32(count)
    return {"value": np.asarray(total / F32(count), F32), "vjp": {"logits": grad.astype(F32)}}


def float32_weights(inputs, probe):
    """In float32: every position's loss from the softmax shifted by the maximum, padded ones
    replaced by 0 first, weighted by mask / count and summed."""
    z, y, n, cot = _parts(inputs, probe, F32)
    b, t, c = z.shape
    valid = _valid(n, t)
    safe = np.where(valid[..., None], z, F32(0))
    shifted = safe - safe.max(axis=-1, keepdims=True)
    e = np.exp(shifted)
    s = e.sum(axis=-1, keepdims=True)
    logp = shifted - np.log(s)
    w = valid.astype(F32) / F32(valid.sum())
    nll = -np.take_along_axis(logp, y[..., None], axis=-1)[..., 0]
    value = np.sum(w * nll, dtype=F32)
    grad = (e / s - np.eye(c, dtype=F32)[y]) * (w * cot)[..., None]
    return {"value": np.asarray(value, F32), "vjp": {"logits": grad.astype(F32)}}


ALTERNATIVES = {"float64_log_softmax": float64_log_softmax,
                "float32_logsumexp": float32_logsumexp, "float32_weights": float32_weights}
