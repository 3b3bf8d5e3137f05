"""Case generator for mixed_precision_step (used by `judge generate`).

Interface (see docs/authors/generate.md, "The generator interface"):

* ``FAMILIES``: family name -> ``draw(rng)``, which returns one candidate case as
  ``{"input": {"params": {"dense": {"w": (d, h), "b": (h,)}, "out": {"w": (h,)}}, "x": (n, d),
  "y": (n,), "loss_scale": float32 (), "good_steps": int32 (), "lr": float, "period": int},
  "note": str}``, arrays float32 with two decimals (params in [-2, 2], x in [-4, 4], y in
  [-8, 8]), 1 <= n <= 16, 1 <= d, h <= 8, loss_scale a power of two from 1 to 32768,
  0 <= good_steps < period <= 64, 0 < lr <= 1; (lr, period) one of ``CONFIGS``.
* ``ALTERNATIVES``: the step computed exactly (float64) from the float16-rounded inputs. A
  case on which it disagrees with the float16 reference beyond the tolerance depends on how
  float16 rounds (the order of a sum, a fused product) and is rejected.

Whether the float16 backward pass overflows is decided in float64 with a wide margin: a case
is kept only if every partial sum of the scaled backward pass stays below 65504 / 4 (it
cannot overflow, however float16 rounds) or some scaled gradient entry is above 4 * 65504 (it
must). The overflow family draws steps where float16 overflows and float32 (whose largest
value is 3.4e38) does not: a float32 program imitating float16 gets them wrong. The
overflow_inside family draws steps where the backward pass overflows inside (the scaled
derivative of the loss by pred, which every float16 autodiff of the loss makes, is past
4 * 65504) while no entry of the scaled gradient comes near 65504: a program that imitates
float16 by comparing the scaled gradient with 65504, or takes the gradient of the unscaled
loss, applies a step float16 skips.

lr and period are static: the judge traces a submission once per pair of them (n, d and h are
symbols and cost nothing), so the cases use the few pairs of ``CONFIGS`` (the examples' three,
period 1 and period 64 with lr 1), and vary the shapes, the scale and good_steps (traced arrays)
freely.

This module is loaded into the judge process: it may import only NumPy and pure standard-library
modules, never JAX.
"""

import numpy as np

F16, F32 = np.float16, np.float32
LIMIT = 65504.0
MARGIN = 4.0
#: the (lr, period) pairs of every case: the examples' three, period 1, and period 64 with the
#: largest lr
CONFIGS = ((0.1, 3), (0.05, 2), (0.01, 8), (0.5, 1), (1.0, 64))


def _round(a, bound):
    return np.clip(np.round(np.asarray(a, np.float64), 2), -bound, bound).astype(F32)


def _config(rng, periods=None) -> tuple:
    """One of ``CONFIGS`` (one whose period is in ``periods``, if given)."""
    found = [c for c in CONFIGS if periods is None or c[1] in periods]
    return found[int(rng.integers(len(found)))]


def _draw(rng, n=None, d=None, h=None, scale=None, good=None, config=None, spread=1.0):
    n = n or int(rng.integers(1, 17))
    d = d or int(rng.integers(1, 9))
    h = h or int(rng.integers(1, 9))
    lr, period = config or _config(rng)
    good = int(rng.integers(0, period)) if good is None else good
    params = {"dense": {"w": _round(rng.uniform(-2, 2, (d, h)) * spread, 2),
                        "b": _round(rng.uniform(-2, 2, h) * spread, 2)},
              "out": {"w": _round(rng.uniform(-2, 2, h) * spread, 2)}}
    scale = float(2.0 ** int(rng.integers(0, 16))) if scale is None else scale
    return {"params": params, "x": _round(rng.uniform(-4, 4, (n, d)), 4),
            "y": _round(rng.uniform(-8, 8, n), 8), "loss_scale": np.array(scale, F32),
            "good_steps": np.array(good, np.int32), "lr": lr, "period": period}


def backward(inputs):
    """The exact gradient (float64) of the mean squared error, from the float16-rounded inputs,
    and the largest magnitude any partial sum of the scaled backward pass reaches."""
    h16 = lambda a: np.asarray(a, F16).astype(np.float64)  # noqa: E731
    p = inputs["params"]
    W, b, w2 = h16(p["dense"]["w"]), h16(p["dense"]["b"]), h16(p["out"]["w"])
    x, y = h16(inputs["x"]), h16(inputs["y"])
    s = float(inputs["loss_scale"])
    n = x.shape[0]
    hid = np.tanh(x @ W + b)
    r = hid @ w2 - y
    dpred = 2 * r / n
    dw2 = hid.T @ dpred
    dhid = np.outer(dpred, w2)
    dz = dhid * (1 - hid ** 2)
    dW = x.T @ dz
    db = dz.sum(0)
    reach = max(np.abs(dpred).max(), (np.abs(hid).T @ np.abs(dpred)).max(), np.abs(dhid).max(),
                (np.abs(x).T @ np.abs(dz)).max(), np.abs(dz).sum(0).max(), 2 * np.abs(r).max() / n)
    return {"dense": {"w": dW, "b": db}, "out": {"w": dw2}}, reach * s


def inside(inputs):
    """The largest magnitude of the scaled derivative of the loss by pred, 2 r scale / n: a
    float16 value of every autodiff of the scaled loss, whatever order it multiplies in."""
    h16 = lambda a: np.asarray(a, F16).astype(np.float64)  # noqa: E731
    p = inputs["params"]
    x = h16(inputs["x"])
    hid = np.tanh(x @ h16(p["dense"]["w"]) + h16(p["dense"]["b"]))
    r = hid @ h16(p["out"]["w"]) - h16(inputs["y"])
    return float(np.abs(2 * r / x.shape[0]).max()) * float(inputs["loss_scale"])


def _top(inputs):
    """The largest magnitude of the scaled gradient."""
    grads, _ = backward(inputs)
    leaves = (grads["dense"]["w"], grads["dense"]["b"], grads["out"]["w"])
    return max(np.abs(g).max() for g in leaves) * float(inputs["loss_scale"])


def overflows(inputs):
    """True (it must overflow), False (it cannot), or None (too close to tell)."""
    grads, reach = backward(inputs)
    s = float(inputs["loss_scale"])
    top = max(np.abs(g).max() for g in (grads["dense"]["w"], grads["dense"]["b"], grads["out"]["w"]))
    if top * s > MARGIN * LIMIT or inside(inputs) > MARGIN * LIMIT:
        return True
    if reach < LIMIT / MARGIN:
        return False
    return None


def _note(inputs, what):
    n, d = inputs["x"].shape
    h = inputs["params"]["out"]["w"].shape[0]
    return (f"{what}; n {n}, d {d}, h {h}, scale {int(inputs['loss_scale'])}, good_steps "
            f"{int(inputs['good_steps'])}, period {inputs['period']}, lr {inputs['lr']}")


def _case(inputs, what):
    return {"input": inputs, "note": _note(inputs, what)}


def steady(rng):
    return _case(_draw(rng, scale=float(2.0 ** int(rng.integers(0, 9)))), "a finite step")


def grows(rng):
    config = _config(rng)
    return _case(_draw(rng, scale=float(2.0 ** int(rng.integers(0, 9))), config=config,
                       good=config[1] - 1), "good_steps + 1 == period: the scale doubles")


def overflow(rng):
    """float16 overflows, float32 does not: a big scale on a sizeable gradient."""
    return _case(_draw(rng, n=int(rng.integers(1, 5)), scale=float(2.0 ** int(rng.integers(12, 16))),
                       spread=1.0), "float16 overflows (float32 would not): skipped, scale halved")


def overflow_about_to_grow(rng):
    config = _config(rng, (1, 3, 8))
    return _case(_draw(rng, n=int(rng.integers(1, 4)), scale=32768.0, config=config, good=config[1] - 1),
                 "overflow when the scale was about to double: halved, good_steps 0")


def overflow_inside(rng):
    """Small weights and inputs (hid near 0, a small out weight) and a large target: the scaled
    derivative by pred overflows, the scaled gradient stays far below 65504."""
    for _ in range(200):
        n, d, h = int(rng.integers(1, 3)), int(rng.integers(1, 3)), int(rng.integers(1, 4))
        case = _draw(rng, n=n, d=d, h=h, scale=float(2.0 ** int(rng.integers(14, 16))), spread=0.005)
        case["x"] = _round(rng.uniform(-1, 1, (n, d)), 4)
        case["y"] = _round(rng.choice([-1, 1], n) * rng.uniform(6, 8, n), 8)
        if inside(case) > MARGIN * LIMIT and _top(case) < LIMIT / MARGIN:
            break
    return _case(case, "overflows inside the backward pass, not in the gradient: skipped")


def period_one(rng):
    return _case(_draw(rng, scale=float(2.0 ** int(rng.integers(0, 6))), config=_config(rng, (1,)), good=0),
                 "period 1: every finite step doubles the scale")


def smallest(rng):
    return _case(_draw(rng, n=1, d=1, h=1, scale=float(2.0 ** int(rng.integers(0, 16)))),
                 "n = d = h = 1")


def big_batch(rng):
    return _case(_draw(rng, n=16, d=8, h=8, scale=float(2.0 ** int(rng.integers(0, 6))), spread=0.3),
                 "n 16, d 8, h 8")


def _kept(draw, want):
    """``draw`` until float16 surely overflows (``want`` True), surely does not (False), or
    either but surely (None); the judge rejects a case the margin cannot decide anyway."""
    def guarded(rng):
        for _ in range(50):
            case = draw(rng)
            found = overflows(case["input"])
            if found is not None and want in (None, found):
                return case
        return case
    guarded.__name__ = draw.__name__
    return guarded


FAMILIES = {f.__name__: _kept(f, want) for f, want in (
    (steady, False), (grows, False), (overflow, True), (overflow_about_to_grow, True),
    (overflow_inside, True), (period_one, False), (smallest, None), (big_batch, False))}


def exact(inputs, probe):
    """The step computed exactly from the float16-rounded inputs (overflow decided with the
    margin; a case too close to tell is given an answer no reference matches)."""
    verdict = overflows(inputs)
    grads, _ = backward(inputs)
    s = np.float32(inputs["loss_scale"])
    good, period, lr = int(inputs["good_steps"]), int(inputs["period"]), inputs["lr"]
    p = inputs["params"]
    if verdict is None:
        return {"params": p, "loss_scale": np.float32(np.nan), "good_steps": np.int32(-1),
                "finite": np.bool_(False)}
    if verdict:
        return {"params": p, "loss_scale": np.float32(s / 2), "good_steps": np.int32(0),
                "finite": np.bool_(False)}
    new = {"dense": {k: (p["dense"][k] - lr * grads["dense"][k]).astype(F32) for k in ("w", "b")},
           "out": {"w": (p["out"]["w"] - lr * grads["out"]["w"]).astype(F32)}}
    grow = good + 1 == period
    return {"params": new, "loss_scale": np.float32(s * 2 if grow else s),
            "good_steps": np.int32(0 if grow else good + 1), "finite": np.bool_(True)}


ALTERNATIVES = {"exact": exact}
