"""Case generator for batched_attention (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"q": (b, t, d), "k": (b, s, d), "v": (b, s, e) float32, "mask": (b, t, s) bool},
  "probe": {"cotangent": (b, t, e) float32}, "note": str}``; ``rng`` is a
  ``numpy.random.Generator`` seeded from (seed, family, index), the only source of randomness.
* ``ALTERNATIVES``: name -> ``compute(inputs, probe)``: the attention and its vjp with respect
  to q, k and v computed another legitimate way in NumPy (``{"value": out, "vjp": {"q": gq,
  "k": gk, "v": gv}}``). A candidate on which one of them disagrees with the reference beyond
  the tolerance is rejected as ambiguous.

For each example i, scores = q[i] @ k[i].T / sqrt(d), the masked entries left out of the
softmax over the s keys, out[i] = softmax(scores) @ v[i]. Every row of every mask keeps at
least one key (a row with none has no softmax). The families put the mistakes where they show:
d different from e and from 1 (a scale by sqrt(e), by d, or none), masks that differ from row
to row and from example to example (a mask ignored, applied after the softmax, transposed, or
shared by the batch), rows that keep a single key, t different from s (a softmax over the
queries), scores up to 64 in magnitude where a masked entry filled with a small number still
gets weight, a masked key scoring far above the visible ones (a softmax shifted by the maximum
over every key underflows), and the largest shapes, where a (b, t, s, d) value is too large for the rules.
Entries are rounded to two decimals so that the spec stays short to read.

d takes few values (``DS``: 1, the examples' 4, 7 and 16): the judge traces a submission once
per value of d (b, t, s and e are symbols and cost nothing), so each value is a program traced
for every submission, while every other extent varies freely. 7 is not a square, so an integer
square root is not the scale, and 16 is the largest.

This module is loaded into the judge process: it may import only NumPy, ml_dtypes and pure
standard-library modules, never JAX.
"""

import numpy as np

F32 = np.float32
F64 = np.float64
LIMIT = 4.0
#: the values of d the cases use
DS = (1, 4, 7, 16)


def _uniform(rng, shape, scale=LIMIT):
    return np.clip(np.round(rng.uniform(-scale, scale, size=shape), 2), -LIMIT, LIMIT).astype(F32)


def _mask(rng, b, t, s, keep=0.6):
    """A random mask with at least one key kept in every row."""
    mask = rng.random((b, t, s)) < keep
    first = rng.integers(0, s, size=(b, t))
    mask[np.arange(b)[:, None], np.arange(t)[None, :], first] = True
    return mask


def _dims(rng, b=(1, 8), t=(1, 8), s=(1, 8), d=DS, e=(1, 8)):
    """b, t, s and e drawn in their ranges (low, high), d one of the values ``d``."""
    drawn = [int(rng.integers(lo, hi + 1)) for lo, hi in (b, t, s, e)]
    return (*drawn[:3], int(rng.choice(d)), drawn[3])


def _case(rng, q, k, v, mask, note, cot_scale=1.0):
    b, t, d = q.shape
    s, e = k.shape[1], v.shape[2]
    cot = np.round(rng.normal(size=(b, t, e)) * cot_scale, 2).astype(F32)
    kept = int(mask.sum())
    return {"input": {"q": q, "k": k, "v": v, "mask": mask},
            "probe": {"cotangent": cot},
            "note": f"{note}; b {b}, t {t}, s {s}, d {d}, e {e}, {kept} of {b * t * s} "
                    f"entries kept"}


def _draw(rng, b, t, s, d, e, scale=LIMIT, keep=0.6):
    return (_uniform(rng, (b, t, d), scale), _uniform(rng, (b, s, d), scale),
            _uniform(rng, (b, s, e)), _mask(rng, b, t, s, keep))


def mixed(rng):
    """b from 1 to 8, t, s, e from 1 to 8, d any of ``DS``, entries uniform in [-4, 4], about
    60% of the keys kept."""
    b, t, s, d, e = _dims(rng)
    return _case(rng, *_draw(rng, b, t, s, d, e), "mixed")


def d_differs_from_e(rng):
    """d from ``DS`` but 1, and e another extent: a scale by sqrt(e) or by d is another
    number."""
    b, t, s, d, e = _dims(rng, t=(2, 8), s=(2, 8), d=DS[1:], e=(1, 16))
    while e == d:
        e = int(rng.integers(1, 17))
    return _case(rng, *_draw(rng, b, t, s, d, e, scale=2.0), "d differs from e")


def causal(rng):
    """A causal mask (query j sees keys 0..j) with t = s: rows keep 1 to s keys."""
    b, t, _, d, e = _dims(rng, b=(1, 6), t=(2, 12))
    q, k, v, _ = _draw(rng, b, t, t, d, e)
    mask = np.broadcast_to(np.tril(np.ones((t, t), bool)), (b, t, t)).copy()
    return _case(rng, q, k, v, mask, "causal mask")


def per_example_masks(rng):
    """Each example its own key lengths (a padding mask): the mask differs between examples,
    so one example's mask used for all of them is wrong."""
    b, t, s, d, e = _dims(rng, b=(2, 8), s=(2, 12))
    q, k, v, _ = _draw(rng, b, t, s, d, e)
    lengths = rng.integers(1, s + 1, size=b)
    lengths[int(rng.integers(b))] = 1
    mask = np.broadcast_to(np.arange(s)[None, None, :] < lengths[:, None, None], (b, t, s)).copy()
    return _case(rng, q, k, v, mask, f"key lengths {list(map(int, lengths))}")


def single_key_rows(rng):
    """Most rows keep exactly one key: their output is that key's value row, whatever the
    scores, and their gradients with respect to q and k are zero."""
    b, t, s, d, e = _dims(rng, s=(2, 10))
    q, k, v, mask = _draw(rng, b, t, s, d, e, keep=0.0)
    return _case(rng, q, k, v, mask, "one key per row mostly")


def t_differs_from_s(rng):
    """t and s differ (a softmax over the queries, or a mask transposed, cannot pass)."""
    b, t, s, d, e = _dims(rng, t=(1, 12), s=(2, 12))
    while s == t:
        s = int(rng.integers(2, 13))
    return _case(rng, *_draw(rng, b, t, s, d, e), "t differs from s")


def large_scores(rng):
    """d = 16, entries of magnitude 3 to 4, each key's signs those of a query of its
    example or their opposite: scores of 27 to 64 in magnitude, so the softmax is nearly
    one-hot, and a masked score filled with -10 or -30 still gets weight next to visible
    scores of -40."""
    b, t, s, d, e = _dims(rng, b=(1, 4), t=(1, 8), s=(2, 8), d=(16,))
    q, k, v, mask = _draw(rng, b, t, s, d, e)
    size = lambda shape: np.round(rng.uniform(3.0, 4.0, size=shape), 2)
    q = (np.where(q < 0, -1.0, 1.0) * size(q.shape)).astype(F32)
    rows = rng.integers(0, t, size=(b, s))
    signs = np.sign(q[np.arange(b)[:, None], rows]) * rng.choice([-1.0, 1.0], size=(b, s, 1))
    k = (signs * size(k.shape)).astype(F32)
    return _case(rng, q, k, v, mask, "large scores", cot_scale=0.5)


def masked_far_above(rng):
    """d = 16, entries of magnitude 3.8 to 4: in every example the first query sees every key
    but the first, which its signs match (a score of 58 to 64) while the others' signs are its
    opposite (-58 to -64). A softmax that subtracts the maximum over all the keys, the masked
    one included, underflows every visible key to 0 there (0 / 0)."""
    b, t, s, d, e = _dims(rng, b=(1, 4), t=(1, 6), s=(2, 8), d=(16,))
    _, _, v, mask = _draw(rng, b, t, s, d, e)
    size = lambda shape: np.round(rng.uniform(3.8, 4.0, size=shape), 2)
    q = (rng.choice([-1.0, 1.0], size=(b, t, d)) * size((b, t, d))).astype(F32)
    signs = np.where(np.arange(s)[None, :, None] == 0, 1.0, -1.0) * np.sign(q[:, :1, :])
    k = (signs * size((b, s, d))).astype(F32)
    mask[:, 0, :] = True
    mask[:, 0, 0] = False
    return _case(rng, q, k, v, mask, "a masked key far above the visible ones", cot_scale=0.5)


def all_kept(rng):
    """Every key kept: the mask is all true (a mask ignored is right here)."""
    b, t, s, d, e = _dims(rng)
    q, k, v, _ = _draw(rng, b, t, s, d, e)
    return _case(rng, q, k, v, np.ones((b, t, s), bool), "no key masked")


def largest(rng):
    """Every extent at its largest, b = 8 and t = s = d = e = 16: a (b, t, s, d) or (b, t, s, e)
    value is over the size the rules allow."""
    b, t, s, d, e = _dims(rng, b=(8, 8), t=(16, 16), s=(16, 16), d=(16,), e=(16, 16))
    return _case(rng, *_draw(rng, b, t, s, d, e, scale=1.0), "largest shapes", cot_scale=0.5)


FAMILIES = {"mixed": mixed, "d_differs_from_e": d_differs_from_e, "causal": causal,
            "per_example_masks": per_example_masks, "single_key_rows": single_key_rows,
            "t_differs_from_s": t_differs_from_s, "large_scores": large_scores,
            "masked_far_above": masked_far_above, "all_kept": all_kept, "largest": largest}


def _parts(inputs, probe, dtype):
    q, k, v = (np.asarray(inputs[n], dtype) for n in ("q", "k", "v"))
    mask = np.asarray(inputs["mask"], bool)
    g = np.asarray(probe.get("cotangent", np.ones(q.shape[:2] + v.shape[2:])), dtype)
    return q, k, v, mask, g


def _attention(q, k, v, mask, g, scale, masked_fill):
    """The forward and backward pass of one formulation: ``masked_fill`` replaces the masked
    scores before the softmax (the softmax's maximum is subtracted)."""
    scores = np.einsum("btd,bsd->bts", q, k) * scale
    scores = np.where(mask, scores, masked_fill)
    shifted = scores - scores.max(axis=-1, keepdims=True)
    e = np.exp(shifted) * mask
    p = e / e.sum(axis=-1, keepdims=True)
    out = np.einsum("bts,bse->bte", p, v)
    gv = np.einsum("bts,bte->bse", p, g)
    gp = np.einsum("bte,bse->bts", g, v)
    gs = p * (gp - (gp * p).sum(axis=-1, keepdims=True))
    gq = np.einsum("bts,bsd->btd", gs, k) * scale
    gk = np.einsum("bts,btd->bsd", gs, q) * scale
    return {"value": out.astype(F32), "vjp": {"q": gq.astype(F32), "k": gk.astype(F32),
                                               "v": gv.astype(F32)}}


def float64_exact(inputs, probe):
    """In float64: the masked scores at -inf-like fill, the softmax's Jacobian written out."""
    q, k, v, mask, g = _parts(inputs, probe, F64)
    return _attention(q, k, v, mask, g, 1.0 / np.sqrt(q.shape[-1]), -1e300)


def float32_fill(inputs, probe):
    """In float32: the masked scores filled with -1e9 (what many libraries do), the scale
    applied to q before the product."""
    q, k, v, mask, g = _parts(inputs, probe, F32)
    scale = F32(1.0 / np.sqrt(F32(q.shape[-1])))
    found = _attention(q * scale, k, v, mask, g, F32(1.0), F32(-1e9))
    found["vjp"]["q"] = (found["vjp"]["q"] * scale).astype(F32)
    return found


ALTERNATIVES = {"float64_exact": float64_exact, "float32_fill": float32_fill}
