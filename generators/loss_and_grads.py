"""Case generator for loss_and_grads (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"params": {"w": (d, k), "b": (k,)} float32, "x": (n, d) float32, "y": (n,)
  int32}, "note": str}``; ``rng`` is a ``numpy.random.Generator`` seeded from (seed, family,
  index), the only source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the loss and its gradient computed
  another legitimate way in NumPy (``{"loss": ..., "grads": {"w": ..., "b": ...}}``). A
  candidate on which one of them disagrees with the reference beyond the tolerance is
  rejected as ambiguous.

logits = x @ w + b; loss = mean over the n examples of logsumexp(logits[i]) - logits[i, y[i]];
grads: delta = (softmax(logits) - one_hot(y)) / n, grad w = x.T @ delta, grad b = sum of delta
over the examples. The families put the mistakes where they show: n, d and k all different (a
transposed gradient has the wrong shape), more than one example (a sum instead of a mean), k
from 2 up (a mean over the classes too), logits past exp's range in float32 (a log of a sum of
exponentials overflows), classes that no label names (their bias still gets a gradient), a
single example and the largest batch (n = 32, d = k = 16), where every example's gradient at
once is too large a value for the rules. Every entry is in [-4, 4], rounded to two decimals
so that the spec stays short to read.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32
F64 = np.float64
I32 = np.int32
LIMIT = 4.0


def _uniform(rng, shape, scale=LIMIT):
    return np.clip(np.round(rng.uniform(-scale, scale, size=shape), 2), -LIMIT, LIMIT).astype(F32)


def _case(w, b, x, y, note):
    n, d = x.shape
    k = w.shape[1]
    return {"input": {"params": {"w": w.astype(F32), "b": b.astype(F32)}, "x": x.astype(F32),
                      "y": np.asarray(y, I32)},
            "note": f"{note}; n {n}, d {d}, k {k}"}


def _draw(rng, n, d, k, scale=1.0):
    return (_uniform(rng, (d, k), scale), _uniform(rng, (k,), scale), _uniform(rng, (n, d)),
            rng.integers(0, k, size=n))


def mixed(rng):
    """n from 2 to 32, d from 1 to 16, k from 2 to 16, weights and bias in [-1, 1]."""
    n, d, k = int(rng.integers(2, 33)), int(rng.integers(1, 17)), int(rng.integers(2, 17))
    return _case(*_draw(rng, n, d, k), "mixed")


def distinct_shapes(rng):
    """n, d and k all different: a gradient of shape (k, d) or a bias gradient of shape (n,)
    is refused by its shape."""
    while True:
        n, d, k = int(rng.integers(2, 20)), int(rng.integers(2, 17)), int(rng.integers(2, 17))
        if len({n, d, k}) == 3:
            return _case(*_draw(rng, n, d, k), "n, d, k all different")


def large_logits(rng):
    """Weights and inputs near +-4 with matching signs: logits of 100 to 260 in magnitude,
    beyond exp's range in float32, where only a stable log-softmax stays finite."""
    n, d, k = int(rng.integers(1, 9)), int(rng.integers(8, 17)), int(rng.integers(2, 7))
    w, b, x, y = _draw(rng, n, d, k, scale=LIMIT)
    size = lambda shape: np.round(rng.uniform(3.0, 4.0, size=shape), 2)
    x = (np.where(x < 0, -1.0, 1.0) * size(x.shape)).astype(F32)
    signs = np.sign(x[rng.integers(0, n, size=k)].T) * rng.choice([-1.0, 1.0], size=(1, k))
    w = (signs * size((d, k))).astype(F32)
    return _case(w, b, x, y, "large logits")


def unused_classes(rng):
    """Labels from a few of the k classes only: the bias of a class no label names still gets
    the mean of its probabilities as gradient."""
    n, d, k = int(rng.integers(2, 17)), int(rng.integers(1, 9)), int(rng.integers(4, 17))
    w, b, x, _ = _draw(rng, n, d, k)
    used = rng.choice(k, size=int(rng.integers(1, 3)), replace=False)
    return _case(w, b, x, rng.choice(used, size=n), f"labels from classes {sorted(map(int, used))}")


def confident(rng):
    """The label's logit above the others by a margin of several units: losses near zero, the
    absolute tolerance matters."""
    n, d, k = int(rng.integers(2, 17)), int(rng.integers(1, 9)), int(rng.integers(2, 9))
    w, b, x, _ = _draw(rng, n, d, k, scale=2.0)
    logits = x.astype(F64) @ w + b
    return _case(w, b, x, np.argmax(logits, axis=1), "labels the predicted class")


def single_example(rng):
    """n = 1: a mean over one example is that example's loss."""
    d, k = int(rng.integers(1, 17)), int(rng.integers(2, 17))
    return _case(*_draw(rng, 1, d, k, scale=2.0), "one example")


def zero_inputs(rng):
    """Some rows of x all zero: their logits are the bias alone."""
    n, d, k = int(rng.integers(2, 17)), int(rng.integers(1, 9)), int(rng.integers(2, 9))
    w, b, x, y = _draw(rng, n, d, k, scale=2.0)
    x[rng.random(n) < 0.5] = 0.0
    x[0] = 0.0
    return _case(w, b, x, y, f"{int((~x.any(1)).sum())} rows of x zero")


def largest(rng):
    """n = 32, d = k = 16: the largest batch, where every example's gradient at once is a
    (32, 16, 16) value."""
    return _case(*_draw(rng, 32, 16, 16, scale=0.5), "largest")


FAMILIES = {"mixed": mixed, "distinct_shapes": distinct_shapes, "large_logits": large_logits,
            "unused_classes": unused_classes, "confident": confident,
            "single_example": single_example, "zero_inputs": zero_inputs, "largest": largest}


def _parts(inputs, dtype):
    params = inputs["params"]
    return (np.asarray(params["w"], dtype), np.asarray(params["b"], dtype),
            np.asarray(inputs["x"], dtype), np.asarray(inputs["y"], np.int64))


def float64_exact(inputs, probe):
    """In float64: the log-softmax with the maximum subtracted, the gradient written out."""
    w, b, x, y = _parts(inputs, F64)
    n, k = x.shape[0], w.shape[1]
    logits = x @ w + b
    shifted = logits - logits.max(axis=1, keepdims=True)
    logp = shifted - np.log(np.exp(shifted).sum(axis=1, keepdims=True))
    delta = (np.exp(logp) - np.eye(k)[y]) / n
    return {"loss": np.asarray(-logp[np.arange(n), y].mean(), F32),
            "grads": {"w": (x.T @ delta).astype(F32), "b": delta.sum(axis=0).astype(F32)}}


def float32_loop(inputs, probe):
    """In float32, one example at a time: logsumexp minus the target logit, the gradient
    accumulated example by example."""
    w, b, x, y = _parts(inputs, F32)
    n = x.shape[0]
    total = F32(0)
    gw, gb = np.zeros_like(w), np.zeros_like(b)
    for i in range(n):
        z = x[i] @ w + b
        m = z.max()
        lse = F32(m + np.log(np.exp(z - m).sum(dtype=F32)))
        total = F32(total + (lse - z[y[i]]))
        p = np.exp(z - lse)
        p[y[i]] -= F32(1)
        gw += np.outer(x[i], p) / F32(n)
        gb += p / F32(n)
    return {"loss": np.asarray(total / F32(n), F32), "grads": {"w": gw, "b": gb}}


ALTERNATIVES = {"float64_exact": float64_exact, "float32_loop": float32_loop}
