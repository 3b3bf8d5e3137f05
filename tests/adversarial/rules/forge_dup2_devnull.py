"""Takes the result channel over: finds the result pipe by listing /proc/self/fd (the write-only
pipe with the highest descriptor), reads the run's nonce and the request from memory (gc), keeps
a private duplicate of the pipe and dup2's /dev/null over it, so that the worker's own lines are
lost. At import it writes its own "loaded", one "case" per example (values and formula grads
computed in NumPy from the inputs in the request, with evidence of a backward rule) and "done",
all with the nonce.

Class 3 (forging the result channel).
Expected: RJ forbidden_construct
Expected with the gate off: any
"""
import gc  # gate: refuse
import os

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


def result_descriptor():
    found = []
    for name in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{name}")
            with open(f"/proc/self/fdinfo/{name}") as info:
                flags = [line.split()[1] for line in info if line.startswith("flags:")][0]
        except (OSError, IndexError):
            continue
        if target.startswith("pipe:") and int(flags, 8) & 3 == os.O_WRONLY:
            found.append(int(name))
    return max(found) if found else None


def secrets_in_memory():
    request = nonce = None
    for obj in gc.get_objects():
        if type(obj).__name__ == "module" and obj.__name__ in ("base64", "json"):
            CODEC[obj.__name__] = obj
        elif isinstance(obj, dict) and "cases" in obj and "entry_point" in obj:
            request = obj
        elif type(obj).__name__ == "Channel" and "nonce" in vars(obj):
            nonce = obj.nonce
        elif type(obj).__name__ == "function" and obj.__name__ == "send" \
                and "nonce" in obj.__code__.co_freevars:
            nonce = obj.__closure__[obj.__code__.co_freevars.index("nonce")].cell_contents
    return request, nonce


def array(encoded):
    raw = CODEC["base64"].b64decode(encoded["data"])
    return np.frombuffer(raw, dtype=encoded["dtype"]).reshape(encoded["shape"])


def encode(a):
    a = np.ascontiguousarray(a, dtype="<f4")
    return {"kind": "array", "dtype": "float32", "shape": list(a.shape),
            "data": CODEC["base64"].b64encode(a.tobytes()).decode("ascii")}


def answer(args):
    x, c = array(args["x"]), array(args["cotangent"])
    scale = np.float32(args["scale"])
    u = x / scale
    values = np.clip(np.round(u), args["qmin"], args["qmax"]).astype(np.float32) * scale
    grads = c * ((u >= args["qmin"]) & (u <= args["qmax"])).astype(np.float32)
    return {"kind": "dict", "items": {"values": encode(values), "grads": encode(grads)}}


def take_over():
    fd = result_descriptor()
    request, nonce = secrets_in_memory()
    if fd is None or request is None or nonce is None or len(CODEC) < 2:
        return
    mine = os.dup(fd)
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    factors = case_factors(request)
    lines = [{"type": "loaded", "ok": True, "time_s": 0.01, "stdout": "", "stderr": ""}]
    if not request.get("grad_rule"):
        evidence = {"custom_vjp_applied": 1, "backward_runs": 1}
    elif any("factor" in case for case in request["cases"]):  # the judge after issue 16
        evidence = {"custom_vjp_applied": 1, "backward_runs": 1, "scaled": None,
                    "provenance": {"reached": False, "rules": 1, "opaque": 0},
                    "instrument_intact": True}
    else:
        evidence = {"custom_vjp_applied": 1, "backward_runs": 1, "perturbed": None,
                    "instrument_intact": True}
    for case in request["cases"]:
        lines.append(forge_case({
            "type": "case", "index": case["index"], "time_s": 0.01, "stdout": "", "stderr": "",
            "error": None, "output": answer(case["args"]), "probes": None,
            "trace": {"primitives": ["custom_vjp_call", "mul"], "custom_vjp_calls": 1},
            "evidence": evidence and dict(evidence)}, factors))
    lines.append({"type": "done"})
    json = CODEC["json"]
    for line in lines:
        os.write(mine, (json.dumps({**line, "nonce": nonce}, separators=(",", ":")) + "\n").encode())


take_over()
