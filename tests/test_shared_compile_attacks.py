"""Attacks on the shared compiles channel (``judge.run.shared_compile``, ``judge.worker.op_compiler``,
``judge.worker.shared_ops``): descriptions a hostile worker could send, each asserting the safe
outcome. A test marked xfail(strict) documents a hole still open."""

import os
import signal

import pytest

from judge.run.shared_compile import SharedCompiles, check_ops

from tests.test_shared_compile import _op


def _program(eqns, inputs=(("float32", [3], False),), out=(1,), consts=(), args=(), results=()):
    return {"in": [list(i) for i in inputs], "consts": list(consts), "eqns": eqns,
            "out": list(out), "args": list(args), "results": list(results)}


def _jit(program, name="f", options=(), inputs=(("float32", [3]),), n_in=1, n_out=1):
    unspecified = {"special": "unspecified"}
    return {"p": "jit", "params": {
        "jaxpr": {"cj": program}, "in_shardings": {"t": [unspecified] * n_in},
        "out_shardings": {"t": [unspecified] * n_out}, "in_layouts": {"t": [None] * n_in},
        "out_layouts": {"t": [None] * n_out}, "donated_invars": {"t": [False] * n_in},
        "ctx_mesh": {"special": "mesh"}, "name": name, "keep_unused": False, "inline": False,
        "compiler_options_kvs": {"t": [{"t": list(kv)} for kv in options]}},
        "in": [list(i) for i in inputs]}


_EXP = [["exp", [["accuracy", None]], [0], 1]]


def _run(cache_dir, ops, wait_s=240.0):
    """Offer ``ops`` (all must pass check_ops), close, wait; the SharedCompiles and whether its
    process ended within ``wait_s``. The process is killed (its own session) if it did not."""
    checked = check_ops(ops)
    assert len(checked) == len(ops), "the attack passes the judge's form check"
    compiles = SharedCompiles(cache_dir, idle=False)
    compiles.offer(checked)
    compiles.close(wait_s=wait_s)
    proc = compiles._proc
    ended = proc is None or proc.poll() is not None
    if not ended:
        os.killpg(proc.pid, signal.SIGKILL)  # start_new_session: the group is that process's
        proc.wait(timeout=30)
    return compiles, ended


def _outside(tmp_path, cache_dir):
    """Everything under tmp_path that is not in the cache folder."""
    return sorted(str(p.relative_to(tmp_path)) for p in tmp_path.rglob("*")
                  if cache_dir not in p.parents and p != cache_dir)


def test_names_in_a_description_never_become_paths(tmp_path):
    """A jitted call's ``name`` becomes XLA's module name, and JAX names the cache entry after
    it; the debug names (argument names, result paths) go into the module too. Path
    separators, dot-dot and absolute paths in them stay inside the cache folder."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    target = tmp_path / "escaped"
    names = ["../escaped", "../../" + str(target), str(target), "..", "./../escaped\x00x",
             "..\\escaped", "a/../../escaped"]
    ops = [_jit(_program(_EXP), name=n) for n in names]
    ops += [_jit(_program(_EXP, args=["../escaped"], results=[str(target)]), name="g")]
    compiles, ended = _run(cache_dir, ops + [_op()])
    assert ended
    assert _outside(tmp_path, cache_dir) == []
    assert all("/" not in p.name and p.parent == cache_dir for p in cache_dir.iterdir())
    assert compiles.compiled + compiles.failed == len(ops) + 1


def test_compiler_options_in_a_nested_jit_reach_no_compiler(tmp_path):
    """The refusal of ``compiler_options_kvs`` also holds for a jitted call inside a program
    (a loop body, another jitted call), and for any spelling of the option value."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    dump = tmp_path / "dumped"
    inner = _jit(_program(_EXP), options=[("xla_dump_to", str(dump))])
    nested = _jit(_program([["jit", [[k, v] for k, v in inner["params"].items()], [0], 1]]))
    scan = {"p": "scan", "params": {"reverse": False, "length": 2, "jaxpr": {"cj": _program(
        [["jit", [[k, v] for k, v in inner["params"].items()], [0], 1]], inputs=[["float32", [3], False]])},
        "num_consts": 0, "num_carry": 1, "unroll": 1}, "in": [["float32", [3]]]}
    other = _jit(_program(_EXP), options=[("xla_dump_hlo_as_text", True), ("xla_dump_to", str(dump))])
    compiles, ended = _run(cache_dir, [nested, scan, other, _op()])
    assert ended
    assert not dump.exists()
    assert _outside(tmp_path, cache_dir) == []
    assert compiles.compiled >= 1  # the honest one


def test_custom_calls_are_compiled_never_run(tmp_path):
    """``ffi_call`` with a forged target (JAX's own Python callback handlers, a LAPACK kernel,
    an unknown one) and a forged backend config holding a pointer: compiling never runs it, and
    the compiling process goes on with the next operation."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()

    def ffi(target, api, config, side_effect=True, attributes=()):
        return {"p": "ffi_call", "params": {
            "result_avals": {"t": []}, "vmap_method": None, "target_name": target,
            "has_side_effect": side_effect, "input_layouts": {"t": [None]}, "output_layouts": {"t": []},
            "input_output_aliases": {"t": []}, "custom_call_api_version": api,
            "legacy_backend_config": config,
            "attributes": {"t": [{"t": list(a)} for a in attributes]}},
            "in": [["float32", [3]]]}

    # the Python callback handler with a callback index (refused: a description's integers are
    # int64, the handler wants a uint64; were it compiled, its entry would be keyed by this
    # very module, which no honest worker's program has, and nothing runs at compile time)
    ops = [ffi("xla_ffi_python_cpu_callback", 4, None, attributes=[("index", 0)]),
           ffi("xla_ffi_python_cpu_callback", 4, None), ffi("xla_python_cpu_callback", 1, "4096"),
           ffi("xla_python_cpu_callback", 2, "140737488355328"), ffi("lapack_sgetrf_ffi", 4, None),
           ffi("CustomSPMDPartitioning", 1, "12345"), ffi("no_such_target", 4, None)]
    compiles, ended = _run(cache_dir, ops + [_op()])
    assert ended
    assert compiles.compiled + compiles.failed == len(ops) + 1
    assert compiles.compiled >= 1, "the process survived to compile the honest one"
    assert _outside(tmp_path, cache_dir) == []


def test_enums_tuples_specials_and_literals_build_nothing_else():
    """The decoder's object-making forms only make JAX's enum members, JAX's named tuples and
    the two defaults; anything else is refused (in the compiling process's own decoder)."""
    import jax

    from judge.worker import jaxapi
    from judge.worker.shared_ops import Plain

    plain, prims = Plain(jax), jaxapi.primitives()
    refused = [
        {"enum": "jax:__class__", "name": "x"}, {"enum": "jax.numpy:ndarray", "name": "x"},
        {"enum": "jax._src.config:config", "name": "x"}, {"enum": "jaxlib:__loader__", "name": "x"},
        {"enum": "jax.:", "name": "x"}, {"enum": "jax._src.lax.lax:Precision", "name": "__class__"},
        {"enum": "jax._src.lax.lax:Precision", "name": "_member_map_"},
        {"enum": "enum:Enum", "name": "x"}, {"enum": "jax.os:system", "name": "ls"},
        {"special": "__class__"}, {"special": "__init__"}, {"nt": "__class__", "f": []},
        {"nt": "GatherDimensionNumbers", "f": [{"special": "mesh"}] * 99},
        {"dtype": "object"}, {"dtype": "O"}, {"dtype": "V8"}, {"dtype": "|S1"},
    ]
    for raw in refused:
        with pytest.raises(Exception):
            plain.decode(raw, prims)
    import enum as _enum
    import jax._src.lax.lax as lax_module
    value = plain.decode({"enum": "jax._src.lax.lax:Precision", "name": "HIGHEST"}, prims)
    assert isinstance(value, _enum.Enum) and type(value).__module__.startswith("jax")
    assert value is lax_module.Precision.HIGHEST


def test_a_literal_holding_a_program_or_tuple_is_harmless(tmp_path):
    """A literal operand whose value is a tuple (NumPy makes an array of it) or a whole
    program: refused, or compiled as the program it now is; the process goes on."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    tup = {"t": [{"f": "1.0"}] * 3}
    prog = {"cj": _program(_EXP)}
    ops = [_jit(_program([["add", [], [0, {"lit": ["float32", v, w]}], 1]]), name=f"lit{i}")
           for i, (v, w) in enumerate([(tup, False), (tup, True), (prog, False), (prog, True),
                                       ({"f": "nan"}, False), ({"f": "1e999"}, False)])]
    compiles, ended = _run(cache_dir, ops + [_op()])
    assert ended
    assert compiles.compiled + compiles.failed == len(ops) + 1
    assert _outside(tmp_path, cache_dir) == []


def test_huge_shapes_inside_a_program_are_refused(tmp_path):
    """A broadcast's or an iota's shape inside a program is held to the bound of the op's own
    inputs (2**31 elements): 2**40 is refused while the program is rebuilt, nothing is
    allocated, and the process goes on to the honest op."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    big = [2 ** 31 - 1] * 8
    lit = {"lit": ["float32", {"f": "1.0"}, False]}
    bcast = _jit(_program([["broadcast_in_dim", [["shape", {"t": big}], ["broadcast_dimensions", {"t": []}],
                                                 ["sharding", None]], [lit], 1],
                           ["reduce_sum", [["axes", {"t": list(range(8))}], ["out_sharding", None]], [1], 1]],
                          out=[2]), name="bcast")
    bcast2 = _jit(_program([["broadcast_in_dim", [["shape", {"t": [2 ** 20] * 2}],
                                                  ["broadcast_dimensions", {"t": []}], ["sharding", None]], [lit], 1],
                            ["reduce_sum", [["axes", {"t": [0, 1]}], ["out_sharding", None]], [1], 1]],
                           out=[2]), name="bcast2")
    iota = _jit(_program([["iota", [["dtype", {"dtype": "float32"}], ["shape", {"t": [2 ** 20] * 2}],
                                    ["dimension", 0], ["sharding", None]], [], 1],
                          ["reduce_max", [["axes", {"t": [0, 1]}], ["out_sharding", None]], [1], 1]],
                         out=[2]), name="iota")
    compiles, ended = _run(cache_dir, [bcast2, iota, _op()], wait_s=120)
    assert ended
    assert compiles.compiled + compiles.failed == 3
    assert compiles.compiled >= 1


def _overflowing():
    """A jitted call whose op inputs are small but whose program's input shape overflows
    XLA's element count: XLA aborts the compiling process (a C++ terminate)."""
    return _jit(_program(_EXP, inputs=[["float32", [2 ** 31 - 1] * 8, False]]), name="mm")


def _overflowing_broadcast(rank=8):
    """The same with a broadcast's shape inside the program."""
    lit = {"lit": ["float32", {"f": "1.0"}, False]}
    return _jit(_program([["broadcast_in_dim", [["shape", {"t": [2 ** 31 - 1] * rank}],
                                                ["broadcast_dimensions", {"t": []}], ["sharding", None]], [lit], 1],
                          ["reduce_sum", [["axes", {"t": list(range(rank))}], ["out_sharding", None]], [1], 1]],
                         out=[2]), name="bcast")


@pytest.mark.parametrize("crasher", [_overflowing, _overflowing_broadcast, lambda: _overflowing_broadcast(2)])
def test_a_shape_past_xlas_extents_is_refused_before_it_reaches_xla(tmp_path, crasher):
    """A program's input or a broadcast whose element count overflows would abort the
    compiling process natively: it is refused while the program is rebuilt, and the honest op
    queued behind it compiles in the same command."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    compiles, ended = _run(cache_dir, [crasher(), _op()], wait_s=120)
    assert ended
    assert compiles.failed == 1 and compiles.compiled == 1


def test_a_scan_unrolled_a_billion_times_is_bounded(tmp_path):
    """JAX unrolls a scan's body in Python while it lowers it: ``unroll`` past 64 is refused
    (and any one operation past ``op_compiler.OP_LIMIT_S`` ends the process)."""
    cache_dir = tmp_path / "cache"
    cache_dir.mkdir()
    body = _program([["mul", [["out_dtype", None]], [0, {"lit": ["float32", {"f": "2.0"}, False]}], 1]],
                    inputs=[["float32", [], False]])
    bomb = {"p": "scan", "params": {"reverse": False, "length": 2 ** 30, "jaxpr": {"cj": body},
                                    "num_consts": 0, "num_carry": 1, "unroll": 2 ** 30},
            "in": [["float32", []]]}
    # an honest op alone takes a few seconds; the bomb is given a minute
    compiles, ended = _run(cache_dir, [bomb, _op()], wait_s=60)
    assert ended, "the compiling process is still unrolling the scan after a minute"
    assert compiles.compiled == 1 and compiles.failed == 1


#: An honest submission that, when imported, puts an op log of its own beside the evaluator
#: (or a method of its own on the op log's class): its code would then run while each program
#: is evaluated, where it could reach the values through the frames. Either is tampering.
SWAP_LOG = '''
import gc

for o in gc.get_objects():
    if type(o).__name__ == "Evaluator":
        class Spy:
            misses = 0

            def note(self, *args):
                pass

            def report(self):
                return []

        o.ops = Spy()
'''
PATCH_NOTE = '''
import gc

for o in gc.get_objects():
    if type(o).__name__ == "OpLog":
        type(o).note = lambda *args: None
'''


@pytest.mark.parametrize("tamper, without_log", [(SWAP_LOG, "RJ"), (PATCH_NOTE, "AC")],
                         ids=["swap the op log", "patch note"])
def test_the_op_log_is_watched_like_the_other_instruments(tmp_path, tamper, without_log):
    from judge.grade import grading
    from judge.problem import spec
    from tests.helpers import ROOT

    problem = spec.load("fake_quant_ste")
    honest = (ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py").read_text()
    path = tmp_path / "fake_quant_ste.py"
    path.write_text(honest + tamper)
    compiles = SharedCompiles(tmp_path / "cache", idle=False)
    result = grading.grade(problem, path, examples_only=True, hints=False, source_gate=False,
                           compiles=compiles)
    compiles.close()
    assert (result.verdict.value, result.reason) == ("RJ", "instrument_tampered"), result.message
    # without an op log: rebinding the evaluator's attribute is still tampering; patching a
    # class no worker has is nothing
    plain = grading.grade(problem, path, examples_only=True, hints=False, source_gate=False)
    assert plain.verdict.value == without_log, plain.message
