"""Finds the worker's result channel through frames (sys._getframe, f_back, f_locals of the
worker's main) and replaces its writer: the Channel instance's _write attribute (before issue
16) or the "write" cell of the send closure (after it). Each line is decoded, its case evidence
rewritten (formula grads "from a backward rule"), and written with the worker's own descriptor
and nonce.

Class 3 (forging the result channel).
Expected: RJ forbidden_construct
Expected with the gate off: any
"""
import sys  # gate: refuse

import jax
import jax.numpy as jnp
import numpy as np


def quantizer(scale, qmin, qmax):
    @jax.custom_vjp
    def quant(v):
        return scale * jnp.clip(jnp.round(v / scale), qmin, qmax)

    def fwd(v):
        return quant(v), v

    def bwd(v, g):
        u = v / scale
        return (jnp.where((u >= qmin) & (u <= qmax), g, 0.0),)

    quant.defvjp(fwd, bwd)
    return quant


def fake_quant_ste(x, scale, qmin, qmax, cotangent):
    """Values from a real custom_vjp; grads by the formula (the forged evidence covers them)."""
    values, pullback = jax.vjp(quantizer(scale, qmin, qmax), x)
    pullback(jnp.ones_like(x))
    u = x / scale
    grads = cotangent * ((u >= qmin) & (u <= qmax)).astype(cotangent.dtype)
    return {"values": values, "grads": grads}


CODEC = {}  # base64 and json, taken from the worker's own modules (no import of them here)


def scaled_array(encoded, k):
    b64 = CODEC["base64"]
    data = np.frombuffer(b64.b64decode(encoded["data"]), dtype="<f4") * np.float32(k)
    return dict(encoded, data=b64.b64encode(data.astype("<f4").tobytes()).decode("ascii"))


def forge_case(message, factors):
    """A case message whose evidence says the grads came from a backward rule: scaled by the
    case's factor (the judge's, read from the request in memory; 2 before issue 16), no path
    around a rule, the instrument intact."""
    output = message.get("output")
    if message.get("type") != "case" or not isinstance(output, dict):
        return message
    grads = (output.get("items") or {}).get("grads")
    if not isinstance(grads, dict) or "data" not in grads:
        return message
    k = factors.get(message.get("index"), 2.0)
    scaled = dict(output, items=dict(output["items"], grads=scaled_array(grads, k)))
    evidence = message.get("evidence")
    if not isinstance(evidence, dict):  # no rule to fool: nothing to forge
        return message
    forged = {"custom_vjp_applied": max(1, evidence.get("custom_vjp_applied") or 0),
              "backward_runs": max(1, evidence.get("backward_runs") or 0),
              "instrument_intact": True, "perturbed": scaled, "scaled": scaled,
              "provenance": dict(evidence.get("provenance") or {}, reached=False)}
    # only the fields this judge's protocol has: "perturbed" before issue 16, "scaled" and
    # "provenance" after it
    evidence = {**evidence, **{key: value for key, value in forged.items() if key in evidence}}
    return dict(message, evidence=evidence)


def case_factors(request):
    return {case.get("index"): float(case.get("factor") or 2.0) for case in request.get("cases", [])}


def rewriting(original, factors):
    json = CODEC["json"]

    def write(fd, data):
        message = forge_case(json.loads(data.decode("utf-8")), factors)
        original(fd, (json.dumps(message, separators=(",", ":")) + "\n").encode("utf-8"))
        return len(data)
    return write


def install():
    frame = sys._getframe()
    while frame is not None and "request" not in frame.f_locals:
        frame = frame.f_back
    if frame is None:
        return
    names = frame.f_locals
    protocol = frame.f_globals["protocol"]  # the worker's protocol module
    CODEC.update(base64=protocol.base64, json=protocol.json)
    factors = case_factors(names["request"])
    channel, send = names.get("channel"), names.get("send")
    if channel is not None and hasattr(channel, "_write"):
        channel._write = rewriting(channel._write, factors)
    elif send is not None and "write" in send.__code__.co_freevars:
        cell = send.__closure__[send.__code__.co_freevars.index("write")]
        cell.cell_contents = rewriting(cell.cell_contents, factors)


install()
