"""The source gate (``judge.gate``, layer 1): what it refuses and what it lets through,
``RJ forbidden_construct`` from ``grading.grade``, and the ``--source-gate`` switch.

Most tests here only parse source in this process, or grade a submission the gate refuses
(no worker starts). Three start workers: the CLI switch with the gate off (examples only), the
walk over every module the default allowlist reaches (imports JAX), and ``judge check`` on a small
package.
"""

import importlib
import json
import os
import pkgutil
import sys
import textwrap
import types
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from judge.grade import grading
from judge import gate
from judge.reports import check_text, gradescope, json_report, junit, text
from judge.grade.verdicts import Verdict
from tests import helpers
from tests.helpers import ROOT

ACCEPTED = sorted(ROOT.glob("submissions/*/accepted/*.py"))
CLOSURE = ROOT / "submissions" / "fake_quant_ste" / "accepted" / "closure_vjp.py"


def findings(source: str, allowed=None) -> list[gate.Finding]:
    return gate.check(textwrap.dedent(source), allowed)


# --- refused: (id, source, a piece of the message) ---------------------------------------------

REFUSED = [
    # imports outside the allowlist, and the denied parts of allowed packages
    ("import_os", "import os", "import of 'os'"),
    ("import_gc", "import gc", "import of 'gc'"),
    ("import_sys_as", "import sys as s", "import of 'sys'"),
    ("from_importlib", "from importlib import import_module", "import from 'importlib'"),
    ("import_builtins", "import builtins", "import of 'builtins'"),
    ("import_ctypes", "import ctypes", "import of 'ctypes'"),
    ("jax_private_module", "import jax._src.core", "private modules"),
    ("from_jax_private", "from jax import _src", "private modules"),
    ("jax_experimental", "from jax.experimental import io_callback", "jax.experimental"),
    ("jax_experimental_import", "import jax.experimental", "import of 'jax.experimental'"),
    ("jax_extend", "import jax.extend.core", "import of 'jax.extend.core'"),
    ("jax_config_from", "from jax import config", "'from jax import config'"),
    ("jax_extend_through_a_list", "import jax\nm = [jax][0].extend.core", "'extend' other than"),
    ("jax_config_attr", "import jax\njax.config.update('jax_enable_x64', True)", "'jax.config'"),
    ("jax_ffi", "import jax\nf = jax.ffi", "'jax.ffi'"),
    ("jax_interpreters", "import jax\nad = jax.interpreters.ad", "'jax.interpreters'"),
    ("jax_lib", "from jax import lib", "'from jax import lib'"),
    ("jax_core", "import jax\njax.core.Tracer", "'jax.core'"),
    ("jax_export", "import jax\njax.export.deserialize(b'')", "'jax.export'"),
    ("jax_monitoring", "import jax\njax.monitoring.register_event_listener(print)",
     "'jax.monitoring'"),
    ("jax_profiler", "import jax\njax.profiler.start_server(9999)", "'jax.profiler'"),
    ("numpy_lib", "import numpy as np\nnp.lib.stride_tricks.as_strided", "'numpy.lib'"),
    ("numpy_ctypeslib", "from numpy import ctypeslib", "'from numpy import ctypeslib'"),
    ("numpy_testing", "import numpy.testing", "import of 'numpy.testing'"),
    ("star_import", "from jax.numpy import *", "import *"),
    ("relative_import", "from . import helper", "relative import"),
    # dunder and private attributes
    ("dunder_globals", "def f(): pass\ng = f.__globals__", "attribute access '__globals__'"),
    ("dunder_class", "x = (1).__class__", "attribute access '__class__'"),
    ("dunder_mro_subclasses", "s = object.__subclasses__()", "'__subclasses__'"),
    ("dunder_dict", "import jax\nd = jax.__dict__", "'__dict__'"),
    ("dunder_closure", "def f(g): return g.__closure__", "'__closure__'"),
    ("dunder_traceback", "try:\n    1/0\nexcept Exception as e:\n    t = e.__traceback__",
     "'__traceback__'"),
    ("dunder_on_self", "class A:\n    def m(self):\n        return self.__dict__", "'__dict__'"),
    # ``X.__call__`` is readable; what it leads to, and what calling it does, is checked as ``X``'s
    ("call_then_self", "def f(x): return x\ng = f.__call__.__self__", "'__self__'"),
    ("call_then_func_globals", "class A:\n    def __call__(self, x): return x\n"
     "g = A().__call__.__func__.__globals__", "'__func__'"),
    ("call_then_objclass", "import jax\nc = jax.jit(abs).__call__.__objclass__", "'__objclass__'"),
    ("type_dunder_call", "C = type.__call__(type, 'X', (), {})", "type() with three arguments"),
    ("metaclass_dunder_call", "C = type(int).__call__(type(int), 'X', (), {})",
     "attribute access '__call__'"),
    ("metaclass_dunder_call_read", "make = type(int).__call__", "attribute access '__call__'"),
    ("dunder_call_store", "class A:\n    pass\na = A()\na.__call__ = print",
     "attribute access '__call__'"),
    ("dunder_call_delete", "def f(a):\n    del a.__call__", "attribute access '__call__'"),
    ("setattr_dunder_call", "def f(a):\n    setattr(a, '__call__', print)", "'__call__'"),
    ("enum_dunder_call", "import enum\nE = enum.Enum.__call__('E', names)",
     "the functional form Enum"),
    ("namedtuple_dunder_call", "import collections\nP = collections.namedtuple.__call__('P', f)",
     "namedtuple() with computed field names"),
    ("namedtuple_dunder_call_read", "import collections\nmake = collections.namedtuple.__call__",
     "'namedtuple' used other than as a call"),
    ("ndarray_dunder_call", "import numpy as np\na = np.ndarray.__call__((1,), object, b)",
     "an array built over a buffer"),
    ("getattr_dunder_call", "def f(o, n): return getattr.__call__(o, n)",
     "getattr() with a computed attribute name"),
    ("attrgetter_dunder_call", "import operator\ng = operator.attrgetter.__call__(n)",
     "attrgetter() with a computed attribute name"),
    ("debug_print_dunder_call", "import jax\njax.debug.print.__call__.__call__('{x.y}', 1)",
     "the format field '{x.y}'"),
    ("eval_dunder_call", "x = eval.__call__('1')", "the name 'eval'"),
    ("load_dunder_call", "import numpy as np\na = np.load.__call__('f')", "attribute access 'load'"),
    ("super_two_args_foreign", "class A:\n    def m(self, other):\n"
                               "        return super(A, other).__init__()", "'__init__'"),
    ("private_on_object", "import jax\nx = jax.custom_vjp._counters", "attribute access '_counters'"),
    ("private_os_exit", "def f(o): o._exit(0)", "attribute access '_exit'"),
    ("private_self_never_set", "class A:\n    def m(self):\n        return self._write",
     "your own classes set"),
    ("private_self_rebound", "class A:\n    def __init__(self):\n        self._x = 1\n"
                             "    def m(self, o):\n        self = o\n        return self._x",
     "attribute access '_x'"),
    ("private_self_in_staticmethod", "class A:\n    _x = 1\n    @staticmethod\n"
                                     "    def m(self):\n        return self._x",
     "attribute access '_x'"),
    ("private_self_shadowed_in_comprehension",
     "class A:\n    _x = 1\n    def m(self, objs):\n        return [self._x for self in objs]",
     "attribute access '_x'"),
    ("private_outside_method", "def f(self):\n    return self._x", "attribute access '_x'"),
    # a private name read on a class of the file's own only where that class's body binds it,
    # the class has no base, keyword or unknown decorator, and nothing else binds its name
    ("private_own_class_not_in_body", "class A:\n    _x = 1\nclass B:\n    pass\ny = B._x",
     "attribute access '_x'"),
    ("private_own_class_with_base", "import jax\nclass A(jax.custom_vjp):\n    _y = 1\n"
                                    "z = A._counters", "attribute access '_counters'"),
    ("private_own_class_with_base_body_name", "import jax\nclass A(jax.custom_vjp):\n"
                                              "    _counters = 1\nz = A._counters",
     "attribute access '_counters'"),
    ("private_own_class_metaclass", "class A(metaclass=type):\n    _x = 1\nz = A._x",
     "attribute access '_x'"),
    ("private_own_class_rebound", "import jax\nclass A:\n    _src = 1\nA = jax\nz = A._src",
     "attribute access '_src'"),
    ("private_own_class_unknown_decorator", "def deco(c):\n    return c\n@deco\nclass A:\n"
                                            "    _x = 1\nz = A._x", "attribute access '_x'"),
    ("private_own_class_annotation_only", "class A:\n    _x: int\nz = A._x",
     "attribute access '_x'"),
    ("private_own_class_not_at_top_level", "def f():\n    class A:\n        _x = 1\n"
                                           "    return A\nz = A._x", "attribute access '_x'"),
    # frames, code, tracebacks, generators
    ("f_back", "def f(fr): return fr.f_back", "'f_back'"),
    ("f_globals", "def f(fr): return fr.f_globals", "'f_globals'"),
    ("tb_frame", "def f(tb): return tb.tb_frame", "'tb_frame'"),
    ("gi_frame", "g = (i for i in range(3))\nf = g.gi_frame", "'gi_frame'"),
    ("cr_frame", "def f(c): return c.cr_frame", "'cr_frame'"),
    ("co_code", "def f(c): return c.co_consts", "'co_consts'"),
    ("cell_contents", "def f(c): return c.cell_contents", "'cell_contents'"),
    # builtins
    ("eval", "x = eval('1 + 1')", "the name 'eval'"),
    ("exec", "exec('x = 1')", "the name 'exec'"),
    ("compile", "c = compile('1', 'f', 'eval')", "the name 'compile'"),
    ("dunder_import", "m = __import__('os')", "the name '__import__'"),
    ("open", "f = open('/etc/passwd')", "the name 'open'"),
    ("breakpoint", "breakpoint()", "the name 'breakpoint'"),
    ("input", "x = input()", "the name 'input'"),
    ("globals", "g = globals()", "the name 'globals'"),
    ("locals", "def f(): return locals()", "the name 'locals'"),
    ("vars", "def f(o): return vars(o)", "the name 'vars'"),
    ("help", "help('os')", "the name 'help'"),
    ("eval_as_value", "e = eval", "the name 'eval'"),
    ("builtin_name_at_module_level", "input = 3", "the name 'input'"),
    ("builtin_name_parameter_default", "def f(input=input): return input", "the name 'input'"),
    ("builtin_name_lambda_default", "g = lambda input=input: input()", "the name 'input'"),
    ("builtin_name_annotation", "def f(input: input): return input", "the name 'input'"),
    ("builtin_name_decorator_outside",
     "def f(input):\n    return input\n\n@input\ndef g(): pass", "the name 'input'"),
    ("builtin_name_comprehension_only",
     "def f():\n    a = input()\n    return [0 for input in []]", "the name 'input'"),
    ("builtin_name_comprehension_first_iterable",
     "def f():\n    return [input for input in input()]", "the name 'input'"),
    ("builtin_name_comprehension_first_iterable_of_an_inner_one",
     "def f(xs):\n    return [[input for input in input()] for v in xs]", "the name 'input'"),
    ("builtin_name_comprehension_condition_before_target",
     "def f(xs):\n    return [0 for v in xs if input()]", "the name 'input'"),
    ("builtin_name_walrus_in_comprehension",
     "def f(xs):\n    return [(input := v) for v in xs], input()", "the name 'input'"),
    ("builtin_name_class_body", "def f(x):\n    class A:\n        input = x\n    return A",
     "the name 'input'"),
    ("builtin_name_global", "def f():\n    global input\n    input = 3", "the name 'input'"),
    ("builtin_name_nonlocal", "def f(input):\n    def g():\n        nonlocal input\n"
     "        return input\n    return g", "the name 'input'"),
    ("builtin_name_except_as", "def f():\n    try:\n        pass\n    except Exception as input:\n"
     "        pass", "the name 'input'"),
    ("builtin_name_parameter_of_another_function",
     "def f(input): return input\ndef g(): return input()", "the name 'input'"),
    ("builtin_name_import_alias", "def f():\n    import math as input\n    return input",
     "the name 'input'"),
    ("builtin_name_match_capture", "def f(x):\n    match x:\n        case open:\n"
     "            pass\n    return open('/etc/passwd')", "the name 'open'"),
    ("builtin_name_nested_def", "def f():\n    def open(p):\n        return p\n    return open",
     "the name 'open'"),
    ("builtin_name_global_in_nested_function", "def f():\n    open = 1\n    def g():\n"
     "        global open\n        return open('/etc/passwd')\n    return g", "the name 'open'"),
    ("builtin_name_bound_in_a_method_read_in_its_class_body", "def f():\n    class A:\n"
     "        def m(self):\n            open = 1\n        h = open('/etc/passwd')\n    return A",
     "the name 'open'"),
    ("builtin_name_class_body_store_and_del", "def f():\n    open = 1\n    class A:\n"
     "        open = 2\n        del open\n        h = open\n    return A", "the name 'open'"),
    ("builtin_name_walrus_in_comprehension_of_a_function", "def f(xs):\n"
     "    [(open := v) for v in xs]\n    return open", "the name 'open'"),
    ("builtin_name_read_in_function_deleted_in_nested_one", "def f():\n    def g():\n"
     "        del open\n    return open('/etc/passwd')", "the name 'open'"),
    ("jax_config_held", "import jax\nc = jax.config", "'jax.config'"),
    ("jax_config_flag_written", "import jax\njax.config.jax_enable_x64 = True", "'jax.config'"),
    ("jax_config_other_flag", "import jax\nd = jax.config.jax_compilation_cache_dir", "'jax.config'"),
    ("jax_config_disable_jit_flag", "import jax\nd = jax.config.jax_disable_jit", "'jax.config'"),
    ("jax_config_values", "import jax\nv = jax.config.values", "'jax.config'"),
    ("getattr_computed", "def f(o, n): return getattr(o, n)", "getattr() with a computed"),
    ("getattr_joined", "def f(o): return getattr(o, '__glo' + 'bals__')", "getattr() with a computed"),
    ("getattr_literal_dunder", "def f(o): return getattr(o, '__globals__')",
     "getattr(..., '__globals__')"),
    ("getattr_literal_private", "def f(o): return getattr(o, '_nonce')", "getattr(..., '_nonce')"),
    ("getattr_as_value", "import functools\ng = functools.partial(getattr)", "'getattr' used"),
    ("setattr_computed", "def f(o, n): setattr(o, n, 1)", "setattr() with a computed"),
    ("setattr_module", "import jax\nsetattr(jax, 'vjp', print)", "assigning"),
    ("delattr_computed", "def f(o, n): delattr(o, n)", "delattr() with a computed"),
    ("hasattr_frame", "def f(o): return hasattr(o, 'f_back')", "hasattr(..., 'f_back')"),
    ("attrgetter_dunder", "import operator\ng = operator.attrgetter('defvjp.__globals__')",
     "attrgetter('defvjp.__globals__')"),
    ("attrgetter_computed", "import operator\ndef f(n): return operator.attrgetter(n)",
     "attrgetter() with a computed"),
    ("attrgetter_as_value", "from operator import attrgetter\ng = attrgetter", "'attrgetter' used"),
    ("methodcaller_dunder", "import operator\nm = operator.methodcaller('__reduce_ex__', 4)",
     "methodcaller('__reduce_ex__')"),
    ("wraps_assigned", "import functools\ndef f(g, h):\n"
                       "    return functools.wraps(g, assigned=('__globals__',))(h)",
     "wraps() with assigned"),
    ("update_wrapper_positional", "from functools import update_wrapper\n"
                                  "def f(a, b, names): return update_wrapper(a, b, names)",
     "update_wrapper() with assigned"),
    ("register_dataclass_computed", "import jax\ndef f(C, n):\n"
                                    "    jax.tree_util.register_dataclass(C, data_fields=[n], "
                                    "meta_fields=[])", "register_dataclass() with a computed"),
    ("register_dataclass_dunder", "from jax.tree_util import register_dataclass\n"
                                  "def f(C): register_dataclass(C, ['__globals__'], [])",
     "register_dataclass('__globals__')"),
    ("register_dataclass_partial_dunder",
     "import functools, jax\n@functools.partial(jax.tree_util.register_dataclass, "
     "data_fields=['__globals__'], meta_fields=[])\nclass C:\n    pass",
     "register_dataclass('__globals__')"),
    ("register_dataclass_partial_computed",
     "from functools import partial\nfrom jax.tree_util import register_dataclass\nNAMES = ['x']\n"
     "@partial(register_dataclass, data_fields=NAMES, meta_fields=[])\nclass C:\n    pass",
     "register_dataclass() with computed"),
    ("register_dataclass_partial_unpacked",
     "import functools, jax\ndef f(kw):\n"
     "    @functools.partial(jax.tree_util.register_dataclass, **kw)\n    class C:\n        pass",
     "register_dataclass() with unpacked"),
    ("register_dataclass_partial_positional",
     "import functools, jax\n@functools.partial(jax.tree_util.register_dataclass, int, ['x'], [])\n"
     "class C:\n    pass", "functools.partial(register_dataclass, ...) with positional"),
    ("register_dataclass_partial_as_value",
     "import functools, jax\nreg = functools.partial(jax.tree_util.register_dataclass, "
     "data_fields=['x'], meta_fields=[])", "'register_dataclass' used other than as a checked call"),
    ("match_class_dunder", "def f(x):\n    match x:\n        case object(__class__=c):\n"
                           "            return c", "class pattern attribute '__class__'"),
    # format strings
    ("format_attribute_field", "s = '{0.__class__}'.format(1)", "format field '{0.__class__}'"),
    ("format_index_field", "s = '{0[secret]}'.format({})", "format field '{0[secret]}'"),
    ("format_map_field", "s = '{x.y}'.format_map({'x': 1})", "format field '{x.y}'"),
    ("format_nested_spec", "s = '{0:{1.real}}'.format(1, 2)", "format field '{1.real}'"),
    ("format_non_literal", "def f(fmt, x): return fmt.format(x)", "'.format' on a string"),
    ("format_map_non_literal", "def f(fmt, m): return fmt.format_map(m)", "'.format_map'"),
    ("str_format_non_literal", "def f(fmt, x): return str.format(fmt, x)", "'.format' on a string"),
    ("str_format_literal_field", "s = str.format('{0.__class__}', 1)", "format field"),
    # files, memory, strings as code, the process's objects
    ("np_load", "import numpy as np\nx = np.load('x.npy')", "attribute access 'load'"),
    ("np_fromfile", "import numpy as np\nx = np.fromfile('/proc/self/mem')", "'fromfile'"),
    ("np_memmap", "import numpy as np\nx = np.memmap('f')", "'memmap'"),
    ("np_save", "import numpy as np\nnp.save('x', 1)", "'save'"),
    ("np_savez", "import numpy as np\nnp.savez('x', a=1)", "'savez'"),
    ("np_loadtxt", "import numpy as np\nnp.loadtxt('/etc/passwd')", "'loadtxt'"),
    ("np_genfromtxt", "import numpy as np\nnp.genfromtxt('f')", "'genfromtxt'"),
    ("np_ctypeslib", "import numpy as np\nnp.ctypeslib.as_array", "numpy.ctypeslib"),
    ("np_datasource", "import numpy as np\nnp.DataSource()", "'DataSource'"),
    ("jnp_load", "import jax.numpy as jnp\njnp.load('x')", "'load'"),
    ("tofile", "def f(a): a.tofile('/tmp/x')", "'tofile'"),
    ("array_ctypes", "def f(a): return a.ctypes.data", "'ctypes'"),
    ("ndarray_over_buffer", "import numpy as np\na = np.ndarray((1,), object, b'\\0' * 8)",
     "an array built over a buffer"),
    ("ndarray_buffer_keyword", "import numpy as np\n"
                               "a = np.ndarray(shape=(1,), dtype='O', buffer=bytearray(8))",
     "an array built over a buffer"),
    ("type_of_array_over_buffer", "def f(a, b): return type(a)((1,), object, b)",
     "an array built over a buffer"),
    ("np_rec", "import numpy as np\nr = np.rec.fromstring(b'', dtype=[('x', 'O')])", "'numpy.rec'"),
    ("np_recarray", "import numpy as np\nr = np.recarray((1,), [('x', 'O')])", "'recarray'"),
    ("live_arrays", "import jax\na = jax.live_arrays()", "'live_arrays'"),
    ("get_type_hints", "import typing\ndef f(g): return typing.get_type_hints(g)",
     "'get_type_hints'"),
    ("forward_ref", "import typing\nr = typing.ForwardRef('x')", "'ForwardRef'"),
    ("singledispatch", "import functools\n@functools.singledispatch\ndef f(x): pass",
     "'singledispatch'"),
    ("jax_debug_breakpoint", "import jax\ndef f(x):\n    jax.debug.breakpoint()\n    return x",
     "'breakpoint'"),
    ("string_annotation_code", "def f(x: \"__import__('os').system('id')\"): pass",
     "the name '__import__'"),
    ("string_annotation_garbage", "def f(x: 'not python at all'): pass", "string annotation"),
    ("string_annotation_nested_garbage", "def f(x: List['b (t) c']): pass", "string annotation"),
    ("string_annotation_nested_dotted_words", "def f(x: 'F[A, \"b.t c\"]'): pass",
     "string annotation"),
    ("string_annotation_nested_dunder_words", "def f(x: F[A, '__import__ os']): pass",
     "string annotation"),
    # modules reached as attributes of allowed modules, by name whatever the object
    ("typing_sys", "import typing\ns = typing.sys", "attribute access 'sys'"),
    ("functools_sys_via_variable", "import typing\nm = typing\ns = m.sys", "attribute access 'sys'"),
    ("dataclasses_inspect", "import dataclasses\ni = dataclasses.inspect", "'inspect'"),
    ("dataclasses_builtins", "import dataclasses\nb = dataclasses.builtins", "'builtins'"),
    ("enum_bltns", "import enum\nb = enum.bltns", "'bltns'"),
    ("contextlib_os", "import typing\no = typing.contextlib.os", "attribute access 'os'"),
    ("jax_version", "import jax\nsp = jax.version.subprocess", "'jax.version'"),
    ("subprocess_by_name", "def f(v): return v.subprocess", "attribute access 'subprocess'"),
    ("np_os", "import numpy as np\no = np.os", "attribute access 'os'"),
    ("types_module", "import typing\nt = typing.types", "'types'"),
    # names of the interpreter's internals, and strings naming them
    ("builtins_name", "b = __builtins__", "the name '__builtins__'"),
    ("loader_name", "l = __loader__", "the name '__loader__'"),
    ("spec_name", "s = __spec__", "the name '__spec__'"),
    ("file_name", "f = __file__", "the name '__file__'"),
    ("dunder_string", "fields = ['__globals__']", "the string '__globals__'"),
    ("frame_string", "name = 'f_back'", "the string 'f_back'"),
    # changing imported modules and functions
    ("assign_module_attribute", "import jax\njax.make_jaxpr = print", "assigning 'jax.make_jaxpr'"),
    ("assign_imported_function_attribute", "from jax import custom_vjp\ncustom_vjp.defvjp = print",
     "assigning 'custom_vjp.defvjp'"),
    ("delete_module_attribute", "import jax.numpy as jnp\ndel jnp.round", "deleting 'jnp.round'"),
    # classes whose attribute names are data, and protocols that answer isinstance or patterns
    ("type_three_arguments", "K = 'x'\nC = type('C', (), {K: 1})", "type() with three arguments"),
    ("type_as_a_value", "t = type\nC = t('C', (), {})", "'type' used other than as type(obj)"),
    ("type_as_a_base", "class Meta(type):\n    pass", "'type' used other than as type(obj)"),
    ("enum_functional", "import enum\nK = 'a'\nE = enum.Enum('E', {K: 1})", "Enum(name, members)"),
    ("enum_functional_from", "from enum import IntEnum\nE = IntEnum('E', 'a b')", "IntEnum(name, members)"),
    ("make_dataclass", "import dataclasses\nP = dataclasses.make_dataclass('P', [('a', int)])",
     "'make_dataclass'"),
    ("metaclass_keyword", "class M:\n    pass\nclass C(metaclass=M):\n    pass", "a metaclass"),
    ("instancecheck_method", "class C:\n    def __instancecheck__(cls, obj):\n        return True",
     "the method '__instancecheck__'"),
    ("array_interface_method", "class C:\n    def __array_interface__(self):\n        return {}",
     "the method '__array_interface__'"),
    ("array_interface_in_body", "class C:\n    __array_interface__ = {}", "'__array_interface__'"),
    ("positional_class_pattern", "from jax.tree_util import GetAttrKey\n\ndef f(o):\n"
     "    match o:\n        case GetAttrKey(a):\n            return a", "positional sub-patterns"),
    ("annotations_in_a_class_body", "import dataclasses\n\n@dataclasses.dataclass\nclass P:\n"
     "    __annotations__ = {'a if 1 else 0': int}", "the name '__annotations__'"),
    ("methodcaller_format", "import operator\nf = operator.methodcaller('format', 1)",
     "methodcaller('format')"),
    # reading traced computations, where the judge's markers and their scopes are
    ("jaxpr_equations", "import jax\nfor e in jax.make_jaxpr(abs)(1.0).jaxpr.eqns:\n    pass",
     "'eqns'"),
    ("equation_name_stack", "def f(e):\n    return str(e.source_info.name_stack)", "'name_stack'"),
    ("compiled_hlo_text", "import jax\nt = jax.jit(abs).lower(1.0).compile().runtime_executable()"
     ".get_hlo_text()", "'runtime_executable'"),
]


@pytest.mark.parametrize("source, expected", [r[1:] for r in REFUSED], ids=[r[0] for r in REFUSED])
def test_refused(source, expected):
    found = findings(source)
    assert found, "the gate let this through"
    assert any(expected in str(f) for f in found), "\n".join(map(str, found))


def test_findings_name_the_line_and_the_construct():
    found = findings("""\
        import jax


        def fake_quant_ste(x, scale, qmin, qmax, cotangent):
            state = jax.custom_vjp.defvjp
            g = state.__globals__
            return g
        """)
    assert [str(f) for f in found] == [
        "line 6: attribute access '__globals__' is not allowed (dunder attributes can reach the "
        "judge's own state)"]


# --- allowed: honest solutions in every style we know ------------------------------------------

ALLOWED = [
    ("builtin_name_as_parameter", "def cross_entropy(input, target):\n    return input[target]"),
    ("builtin_name_as_lambda_parameter", "g = lambda input: input + 1"),
    ("builtin_name_as_method_parameter", "class A:\n    def f(self, input):\n        return input"),
    ("builtin_name_parameter_read_in_nested_scopes", """
        def f(input, open):
            def g():
                return input, open
            h = lambda: input
            return [input * k for k in range(2)], g, h
        """),
    ("builtin_name_as_local_variable", "def f(x):\n    vars = x * 2\n    input = vars + 1\n"
     "    del vars\n    return input"),
    ("builtin_name_as_comprehension_target", """
        def f(leaves, rows):
            total = sum(input * input for input in leaves)
            pairs = {open: [input for input in row] for open, row in rows}
            return total, pairs, [lambda: input for input in leaves]
        """),
    # a read before the function's own binding is that variable unbound (UnboundLocalError, or
    # NameError in a class body reading it as a free variable), never the built-in
    ("builtin_name_annotated_local_read_before_any_value",
     "def f():\n    open: int\n    return open('/etc/passwd')"),
    ("builtin_name_class_body_reads_function_variable_before_it_is_bound",
     "def f():\n    class A:\n        h = open('/etc/passwd')\n    open = 1\n    return A"),
    ("builtin_name_deleted_then_read", "def f():\n    try:\n        del open\n"
     "    except NameError:\n        pass\n    return open('/etc/passwd')"),
    ("builtin_name_walrus_and_star_targets", "def f(xs):\n    (vars := xs[0])\n"
     "    a, *open = xs\n    return vars, open"),
    ("builtin_name_read_by_lambda_default_inside_binding_function",
     "def f():\n    open = 1\n    def g(a=lambda: open):\n        return a()\n    return g"),
    ("jax_config_flag_read", "import jax\nimport jax.numpy as jnp\n"
     "DTYPE = jnp.float64 if jax.config.jax_enable_x64 else jnp.float32\n"
     "P = jax.config.jax_default_matmul_precision"),
    ("shape_strings_in_annotations", "from __future__ import annotations\n"
     "def f(x: Float[Array, 'b t d'], y: 'Float[Array, \"*batch #n ... 3\"]') -> None: pass"),
    ("vjp_of_a_bound_dunder_call", """
        import jax

        class Layer:
            def __init__(self, lam):
                self.lam = lam

            def __call__(self, x):
                return x * self.lam

        def run(x, lam):
            layer = Layer(lam)
            y, pullback = jax.vjp(layer.__call__, x)
            z = Layer.__call__(layer, x) + layer.__call__(x) + jax.jit(abs).__call__(x)
            return y, pullback, z, callable(layer) and hasattr(layer, "__call__")
        """),
    ("decorator_custom_vjp", """
        import jax
        import jax.numpy as jnp

        @jax.custom_vjp
        def q(x):
            return jnp.round(x)

        def q_fwd(x):
            return q(x), None

        def q_bwd(_, g):
            return (g,)

        q.defvjp(q_fwd, q_bwd)
        """),
    ("call_form_custom_vjp", """
        import jax
        import jax.numpy as jnp

        def _round(x):
            return jnp.round(x)

        q = jax.custom_vjp(_round)
        q.defvjp(lambda x: (_round(x), None), lambda _, g: (g,))
        """),
    ("nondiff_argnums_partial", """
        import functools
        import jax
        import jax.numpy as jnp

        @functools.partial(jax.custom_vjp, nondiff_argnums=(1, 2))
        def clip(x, lo, hi):
            return jnp.clip(x, lo, hi)

        def _clip_fwd(x, lo, hi):
            return clip(x, lo, hi), x

        def _clip_bwd(lo, hi, x, g):
            return (g * ((x >= lo) & (x <= hi)),)

        clip.defvjp(_clip_fwd, _clip_bwd)
        """),
    ("from_jax_import", """
        from jax import custom_vjp, vjp, grad, jit, vmap
        from jax import numpy as jnp
        from jax.lax import stop_gradient

        @custom_vjp
        def f(x):
            return jnp.sign(x)

        f.defvjp(lambda x: (f(x), None), lambda _, g: (g,))

        def solve(x, c):
            y, pull = vjp(f, x)
            return y, pull(c)[0], stop_gradient(x)
        """),
    ("jit_static_arguments", """
        import functools
        import jax

        @functools.partial(jax.jit, static_argnames=("scale", "qmin", "qmax"))
        def f(x, scale, qmin, qmax):
            return x * scale

        g = jax.jit(lambda x, n: x * n, static_argnums=(1,))
        """),
    ("helper_factory", """
        import jax
        import jax.numpy as jnp

        def make_quantizer(scale, lo, hi):
            @jax.custom_vjp
            def q(v):
                return scale * jnp.clip(jnp.round(v / scale), lo, hi)

            def fwd(v):
                return q(v), v

            def bwd(v, g):
                u = v / scale
                return (jnp.where((u >= lo) & (u <= hi), g, 0.0),)

            q.defvjp(fwd, bwd)
            return q
        """),
    ("own_class_private_static_rules", """
        from functools import partial
        import jax

        class Reversal:
            _scale = -1.0

            @staticmethod
            @partial(jax.custom_vjp, nondiff_argnums=(1,))
            def apply(x, lam):
                return x

            @staticmethod
            def _fwd(x, lam):
                return x, None

            @staticmethod
            def _bwd(lam, _, g):
                return (Reversal._scale * lam * g,)

        Reversal.apply.defvjp(Reversal._fwd, Reversal._bwd)
        """),
    ("class_with_init_call_and_private_state", """
        import jax
        import jax.numpy as jnp

        class Quantizer:
            _count = 0

            def __init__(self, scale, lo, hi):
                super().__init__()
                self._scale = scale
                self._lo, self._hi = lo, hi
                self.__cache = {}

            def _mask(self, v):
                u = v / self._scale
                return (u >= self._lo) & (u <= self._hi)

            def __call__(self, x):
                f = jax.custom_vjp(lambda v: self._scale * jnp.round(v / self._scale))
                f.defvjp(lambda v: (f(v), self._mask(v)), lambda m, g: (jnp.where(m, g, 0.0),))
                return f(x) + len(self.__cache) + type(self)._count

            @classmethod
            def unit(cls):
                return cls(1.0, -1, 1)

            def __repr__(self):
                return f"Quantizer({self._scale!r}) {type(self).__name__}"

            def __add__(self, other):
                return self

            __radd__ = __add__
        """),
    ("old_style_super", """
        class Base:
            def __init__(self):
                self.ready = True

        class Child(Base):
            def __init__(self):
                super(Child, self).__init__()
        """),
    ("dataclass", """
        import dataclasses
        from dataclasses import dataclass, field

        @dataclass(frozen=True)
        class Config:
            scale: float
            bounds: tuple = field(default=(-8, 7))
            _tag: str = "q"

            def __post_init__(self):
                assert self.scale > 0

            def tagged(self):
                return self._tag

        c = dataclasses.replace(Config(1.0), scale=2.0)
        """),
    ("register_dataclass", """
        import dataclasses
        import jax

        @jax.tree_util.register_dataclass
        @dataclasses.dataclass
        class State:
            x: jax.Array

        jax.tree_util.register_dataclass(State, data_fields=["x"], meta_fields=[])
        """),
    ("register_dataclass_partial_decorator", """
        import dataclasses
        import functools
        from functools import partial

        import jax
        from jax.tree_util import register_dataclass

        @functools.partial(jax.tree_util.register_dataclass, data_fields=["x"], meta_fields=["n"])
        @dataclasses.dataclass
        class State:
            x: jax.Array
            n: int

        @partial(register_dataclass, data_fields=("y",), meta_fields=(), drop_fields=None)
        @dataclasses.dataclass
        class Other:
            y: jax.Array
        """),
    ("type_hints", """
        from __future__ import annotations

        from typing import Callable, Literal, Optional, Sequence, Tuple
        import jax
        import numpy.typing as npt

        Mode = Literal["half even", "floor"]

        def f(x: jax.Array, scale: float, mode: Mode = "half even",
              g: Optional[Callable[[jax.Array], jax.Array]] = None) -> Tuple[jax.Array, "jax.Array"]:
            y: "npt.NDArray" = x
            return x, y
        """),
    ("lru_cache_and_wraps", """
        import functools
        from functools import wraps

        @functools.lru_cache(maxsize=None)
        def table(n):
            return tuple(range(n))

        def logged(f):
            @wraps(f)
            def inner(*args):
                return f(*args)
            return inner

        @functools.cache
        def g(n):
            return n
        """),
    ("prints_and_formats", """
        import jax
        import numpy as np

        def debug(x, scale):
            print("x =", x, "scale =", scale)
            print(f"{scale:.3f} {x!r} {type(x).__name__} {jax.__version__} {np.__version__}")
            print("{} {:>8} {name} {0}".format(1, 2, name=3))
            print("%s and %d" % ("a", 1))
            print(str.format("{0}", scale))
            jax.debug.print("x = {x}", x=x)
            if __name__ == "__main__":
                pass
        """),
    ("leading_underscore_helpers", """
        import jax.numpy as jnp

        _EPS = 1e-6
        _cache = []

        def _fwd(x):
            return jnp.round(x), x

        def _bwd(res, g):
            return (g,)

        def __helper(x):
            return x
        """),
    ("numpy_constants", """
        import math
        import numpy as np
        import jax.numpy as jnp

        TWO_PI = 2 * np.pi + math.pi
        BIG = np.finfo(np.float32).max
        INF = np.inf
        EYE = np.eye(3, dtype=np.float32)
        LO, HI = np.iinfo(np.int8).min, np.iinfo(np.int8).max
        TABLE = jnp.asarray(np.linspace(0.0, 1.0, 5))
        """),
    ("grad_of_weighted_sum", """
        import jax
        import jax.numpy as jnp

        def solve(q, x, c):
            return jax.grad(lambda v: jnp.sum(q(v) * c))(x)
        """),
    ("vmap_cond_scan", """
        import jax
        import jax.numpy as jnp
        from jax import lax

        def f(x):
            y = jax.vmap(lambda v: lax.cond(v > 0, lambda u: u, lambda u: -u, v))(x)
            total, _ = lax.scan(lambda c, v: (c + v, v), 0.0, y)
            z = lax.fori_loop(0, 3, lambda i, a: a + i, 0.0)
            return total + z, jnp.where(x > 0, x, 0.0).at[0].set(1.0)
        """),
    ("lists_copies_and_arrays", """
        import jax.numpy as jnp
        import numpy as np

        def f(x):
            parts = []
            parts.extend([x, x])
            y = np.array([1.0, 2.0]).copy()
            assert isinstance(y, np.ndarray) and hasattr(y, "shape")
            z = getattr(jnp, "round")(x)
            return jnp.select([x > 0], [x]), parts, y.reshape(2, 1).T, z
        """),
    ("stdlib_helpers", """
        import itertools
        import operator
        import collections
        import collections.abc
        import enum
        import typing

        class Mode(enum.Enum):
            EVEN = 1

        Point = collections.namedtuple("Point", "x y")
        pairs = list(itertools.product([1, 2], repeat=2))
        first = operator.itemgetter(0)
        total = operator.attrgetter("real")(3)
        isseq = isinstance(pairs, collections.abc.Sequence)
        counts = collections.Counter("abc")
        T = typing.TypeVar("T")
        """),
    ("exceptions_and_exit", """
        def f(x):
            try:
                return 1 / x
            except ZeroDivisionError as exc:
                raise ValueError("x must not be zero") from exc
            finally:
                pass

        def g():
            exit(0)
        """),
    ("sign_ste_custom_jvp", """
        import jax
        import jax.numpy as jnp

        @jax.custom_jvp
        def ste(x):
            return jnp.sign(x)

        @ste.defjvp
        def _ste_jvp(primals, tangents):
            (x,), (t,) = primals, tangents
            return jnp.sign(x), t
        """),
    ("pattern_matching", """
        def f(x):
            match x:
                case {"a": 1}:
                    return 1
                case [a, b]:
                    return a + b
                case complex(real=r):
                    return r
                case _:
                    return 0
        """),
    ("own_classes_type_tests_and_namedtuple_api", """
        import dataclasses
        import typing
        import jax.numpy as jnp

        @dataclasses.dataclass
        class QParams:
            scale: float
            lo: int
            hi: int
            dtype: type = jnp.float32

        class Pair(typing.NamedTuple):
            a: float
            b: float

        def f(o, p: Pair):
            if isinstance(o.dtype, type) or isinstance(o, (type, int)):
                p = p._replace(a=1.0)
            match o:
                case QParams(scale, lo, hi) if lo < hi:
                    return scale, p._asdict(), Pair._fields
        """),
    ("builtin_type_patterns_and_type_of", """
        import enum
        import typing

        class Mode(enum.Enum):
            NEAREST = 1

        def f(o, x: type[int] | None = None) -> typing.Any:
            kind = type(o).__name__
            match o:
                case int(n) | float(n):
                    return n, kind, Mode(1)
                case dict(d):
                    return d
        """),
]


@pytest.mark.parametrize("source", [a[1] for a in ALLOWED], ids=[a[0] for a in ALLOWED])
def test_allowed(source):
    found = findings(source)
    assert found == [], "\n".join(map(str, found))


@pytest.mark.parametrize("path", ACCEPTED, ids=lambda p: str(p.relative_to(ROOT / "submissions")))
def test_every_accepted_submission_passes_the_gate(path):
    assert gate.check_file(path) == []


#: Hostile submissions of tests/adversarial/ that only the limits stop: exhausting memory or CPU
#: needs nothing the gate refuses. Every other one is refused before it runs.
ONLY_LIMITS_STOP = {"alloc_30gb_at_import.py", "alloc_30gb_jax.py", "alloc_unbounded.py",
                    "alloc_growing_list.py", "alloc_jnp_zeros_1e9.py",
                    "cpu_burn.py", "infinite_loop.py"}


@pytest.mark.parametrize("path", sorted((ROOT / "tests" / "adversarial").glob("*.py")),
                         ids=lambda p: p.name)
def test_the_gate_refuses_the_sandbox_attacks(path):
    found = gate.check_file(path)
    if path.name in ONLY_LIMITS_STOP:
        assert found == []
    else:
        assert found, f"{path.name} passes the gate"


def test_every_reference_passes_the_gate():
    for path in sorted((ROOT / "reference").glob("*.py")):
        assert gate.check_file(path) == [], path


# --- the allowlist is spec data -----------------------------------------------------------------

def test_allowed_imports_replace_the_default():
    assert findings("import numpy", allowed=["jax"])
    assert findings("import math", allowed=[]) and findings("import jax", allowed=[])
    assert not findings("import scipy.special\nimport jax", allowed=["jax", "scipy"])
    assert not findings("from __future__ import annotations", allowed=[])


def test_a_spec_can_allow_a_denied_submodule_and_only_that():
    allowed = ["jax", "jax.experimental.sparse"]
    assert not findings("""\
        import jax
        import jax.experimental.sparse
        from jax.experimental import sparse
        m = jax.experimental.sparse.BCOO
        """, allowed)
    assert findings("from jax.experimental import io_callback", allowed)
    assert findings("import jax\nf = jax.experimental.io_callback", allowed)
    assert findings("import jax.experimental", allowed)


def test_allowed_imports_in_the_spec(tmp_path, monkeypatch):
    import yaml

    from judge.problem import spec
    from judge.errors import SpecError

    data = yaml.safe_load((ROOT / "problems" / "fake_quant_ste.yaml").read_text())
    (tmp_path / "problems").mkdir()
    path = tmp_path / "problems" / "fake_quant_ste.yaml"
    path.write_text(yaml.safe_dump({**data, "allowed_imports": ["jax"]}, sort_keys=False))
    problem = spec.load(path)
    assert problem.allowed_imports == ("jax",)
    assert spec.load(ROOT / "problems" / "fake_quant_ste.yaml").allowed_imports is None
    monkeypatch.setattr(grading, "run_worker", worker_called)
    numpy_user = write(tmp_path, "import numpy as np\nimport jax\n")
    result = grading.grade(problem, numpy_user, examples_only=True)
    assert result.reason == "forbidden_construct" and "allows imports from jax only" in result.message
    path.write_text(yaml.safe_dump({**data, "allowed_imports": ["jax._src"]}, sort_keys=False))
    with pytest.raises(SpecError, match="allowed_imports"):
        spec.load(path)


def test_module_verdicts():
    allowed = gate.DEFAULT_ALLOWED_IMPORTS
    assert gate.module_verdict("jax.numpy.linalg", allowed) == "ok"
    assert gate.module_verdict("jax.experimental.sparse", allowed) == "denied"
    assert gate.module_verdict("numpy._core", allowed) == "private"
    assert gate.module_verdict("scipy", allowed) == "not allowed"
    assert gate.module_verdict("jaxlib", allowed) == "not allowed"


#: Modules reachable by attribute from the default allowlist that are not allowed imports but do
#: nothing a submission must not do.
HARMLESS_MODULES = {"abc", "copy", "re", "keyword", "numbers", "contextlib", "warnings",
                    "textwrap", "numpy.lib.scimath"}


def _refused_by_name(name: str) -> bool:
    found = findings(f"def f(obj):\n    return obj.{name}")
    return bool(found)


def test_modules_reachable_by_attribute_are_allowed_or_refused_by_name():
    """Import every public module of the default allowlist (as a submission could), walk every
    module-valued attribute, and check that each module reached is allowed or harmless, or that
    the attribute's name (or its path) is refused. New releases of Python, NumPy or JAX that
    import another module under a new name fail here until the gate knows it."""
    allowed = gate.DEFAULT_ALLOWED_IMPORTS

    def import_allowed(package):  # pkgutil.walk_packages would import the denied ones too
        for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
            if gate.module_verdict(info.name, allowed) != "ok" \
                    or "tests" in info.name.split("."):
                continue
            try:
                module = importlib.import_module(info.name)
            except Exception:  # noqa: BLE001 - an optional dependency is missing: unreachable
                continue
            if info.ispkg:
                import_allowed(module)

    for package in ("jax", "numpy"):
        import_allowed(importlib.import_module(package))
    missing, seen = {}, set()

    def walk(module, path):
        for name, value in sorted(vars(module).items()):
            if (not isinstance(value, types.ModuleType) or name.startswith("_")
                    or not name.isidentifier()):  # pytest's assertion rewriting adds @py_builtins
                continue
            sub = f"{path}.{name}"
            if gate.module_verdict(sub, allowed) == "denied" or _refused_by_name(name):
                continue
            real = value.__name__
            if gate.module_verdict(real, allowed) != "ok" and real not in HARMLESS_MODULES:
                missing.setdefault(name, sub)
                continue
            if real not in seen:
                seen.add(real)
                walk(value, sub)

    for name in sorted(sys.modules):
        if gate.module_verdict(name, allowed) == "ok" and name not in seen:
            seen.add(name)
            walk(sys.modules[name], name)
    assert len(seen) > 50
    assert missing == {}, f"reachable modules the gate does not refuse by name: {missing}"


# --- grading: RJ forbidden_construct, never run --------------------------------------------------

def write(tmp_path, source: str, name: str = "solution.py") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


GATED = """\
    import jax
    import jax.numpy as jnp


    def fake_quant_ste(x, scale, qmin, qmax, cotangent):
        g = fake_quant_ste.__globals__
        return {"values": x, "grads": cotangent}
    """


def test_a_refused_submission_is_never_run(fq_problem, tmp_path, monkeypatch):
    def no_worker(*args, **kwargs):
        raise AssertionError("the worker was started for a refused submission")

    monkeypatch.setattr(grading, "run_worker", no_worker)
    result = grading.grade(fq_problem, write(tmp_path, GATED), source_gate=True)
    assert (result.verdict, result.reason) == (Verdict.RJ, "forbidden_construct")
    assert result.source_gate is True
    assert {c.reason for c in result.cases} == {"forbidden_construct"}
    assert len(result.cases) == len(fq_problem.cases)
    hidden = [c for c in result.cases if c.visibility == "hidden"]
    assert hidden and all("line 6: attribute access '__globals__'" in c.message for c in hidden)
    assert all(c.time_s is None for c in result.cases)
    assert "all " in text.render(result) and "[forbidden_construct] line 6" in text.render(result)


class WorkerCalled(Exception):
    pass


def worker_called(*args, **kwargs):
    raise WorkerCalled


def test_a_syntax_error_is_left_to_the_worker(fq_problem, tmp_path, monkeypatch):
    """Source that does not parse goes to the worker, which reports CE syntax_error as before
    (tests/test_cli.py grades compile_error/syntax_error.py end to end)."""
    monkeypatch.setattr(grading, "run_worker", worker_called)
    with pytest.raises(WorkerCalled):
        grading.grade(fq_problem, write(tmp_path, "def fake_quant_ste(x:\n"), examples_only=True)


def test_the_environment_turns_the_gate_off_with_a_warning(fq_problem, tmp_path, monkeypatch,
                                                            capsys):
    monkeypatch.setattr(grading, "run_worker", worker_called)
    path = write(tmp_path, GATED)
    monkeypatch.setenv(gate.ENV_VAR, "off")
    with pytest.raises(WorkerCalled):
        grading.grade(fq_problem, path, examples_only=True)
    # one line about the gate (a machine without bubblewrap adds its own warning)
    said = [line for line in capsys.readouterr().err.splitlines() if "source gate" in line]
    assert len(said) == 1 and "source gate disabled (JUDGE_SOURCE_GATE=off)" in said[0]
    with pytest.raises(WorkerCalled):  # an explicit False is quiet
        grading.grade(fq_problem, path, examples_only=True, source_gate=False)
    assert "source gate" not in capsys.readouterr().err
    # the argument wins over the environment
    result = grading.grade(fq_problem, path, examples_only=True, source_gate=True)
    assert result.reason == "forbidden_construct"
    monkeypatch.setenv(gate.ENV_VAR, "maybe")
    with pytest.raises(Exception, match="unknown source gate setting 'maybe'"):
        grading.grade(fq_problem, path, examples_only=True)


def test_an_oversized_or_deeply_nested_file_is_refused(tmp_path):
    big = tmp_path / "big.py"
    big.write_text("x = 1\n" * (gate.MAX_SOURCE_BYTES // 6 + 1))
    assert "bytes" in str(gate.check_file(big)[0])
    deep = tmp_path / "deep.py"
    deep.write_text("x = " + "-" * 50000 + "1\n")
    found = gate.check_file(deep)
    assert found is None or found  # a parser error (CE in the worker) or a finding, never a crash


# --- reports record a gate that was off ---------------------------------------------------------

def test_reports_record_the_gate(fq_problem, tmp_path):
    refused = grading.grade(fq_problem, write(tmp_path, GATED), examples_only=True)
    from dataclasses import replace

    off = replace(refused, source_gate=False)
    assert json_report.to_dict(refused)["source_gate"] is True
    assert json_report.to_dict(off)["source_gate"] is False
    assert gradescope.to_dict(refused)["extra_data"] == {"source_gate": True}
    assert "source gate off" in gradescope.to_dict(off)["output"]
    assert gradescope.to_dict(off)["extra_data"] == {"source_gate": False}
    for result, value in ((refused, "on"), (off, "off")):
        suite = ET.fromstring(junit.render_grade(result).split("\n", 1)[1])
        prop = suite.find("properties/property[@name='source_gate']")
        assert prop is not None and prop.get("value") == value
    assert "source gate: off" in text.render(off) and "source gate" not in text.render(refused)


# --- the command line -------------------------------------------------------------------------

def judge(*args, env_extra=None):
    env = {k: v for k, v in os.environ.items() if k != gate.ENV_VAR}
    env.update(env_extra or {})
    return helpers.judge(*args, env=env)


def test_cli_refuses_with_json_and_reports_the_gate(tmp_path):
    r = judge("grade", str(write(tmp_path, GATED)), "-p", "fake_quant_ste", "--format", "json")
    assert r.returncode == 1, r.stderr
    report = json.loads(r.stdout)
    assert (report["verdict"], report["reason"]) == ("RJ", "forbidden_construct")
    assert report["source_gate"] is True and report["version"] == 6
    assert report["score"] == 0 and report["zeroed_by"]["verdict"] == "RJ"  # a rule failure: 0
    assert "source gate" not in r.stderr  # (where bubblewrap is missing, its own warning shows)


def test_cli_switch_option_environment_and_warning(tmp_path):
    """The option wins over the environment; off prints one warning line naming what is lost.
    (With the gate off this submission runs; --examples-only keeps that short.)"""
    path = str(write(tmp_path, GATED))
    r = judge("grade", path, "-p", "fake_quant_ste", "--examples-only", "--format", "json",
              "--source-gate", "on", env_extra={gate.ENV_VAR: "off"})
    assert json.loads(r.stdout)["reason"] == "forbidden_construct" and "source gate" not in r.stderr
    r = judge("grade", path, "-p", "fake_quant_ste", "--examples-only", "--format", "json",
              env_extra={gate.ENV_VAR: "off"})
    report = json.loads(r.stdout)
    assert report["source_gate"] is False and report["reason"] != "forbidden_construct"
    warnings = [line for line in r.stderr.splitlines() if "source gate" in line]
    assert len(warnings) == 1, r.stderr
    assert warnings[0].startswith("judge: warning: source gate disabled (JUDGE_SOURCE_GATE=off)")
    assert "reflection" in warnings[0] and "sandbox" in warnings[0]
    r = judge("grade", path, "-p", "fake_quant_ste", "--source-gate", "maybe")
    assert r.returncode == 2 and "--source-gate" in r.stderr
    r = judge("grade", path, "-p", "fake_quant_ste", env_extra={gate.ENV_VAR: "maybe"})
    assert r.returncode == 2 and "unknown source gate setting 'maybe'" in r.stderr


def test_cli_batch_and_check_take_the_switch():
    for command in ("batch", "check"):
        r = judge(command, "--help")
        assert "--source-gate {on,off}" in r.stdout, r.stdout


# --- judge check: the author's own code --------------------------------------------------------

def test_check_gates_accepted_submissions_and_notes_the_others(tmp_path):
    """accepted/ is graded as a student's would be; the others with the gate off (the rules and
    limits still catch them), with a note of what the gate would refuse; the reference is never
    gated, with a note too. With --source-gate off, no gate at all."""
    from judge.author.check import check_problem
    from tests.test_check import REFERENCE, errors, make_package

    subs = ROOT / "submissions" / "fake_quant_ste"
    path = make_package(tmp_path, reference=REFERENCE + "\n_G = fake_quant_ste.__globals__\n", subs={
        "accepted/closure_vjp.py": CLOSURE,
        "accepted/reflective.py": REFERENCE + "\n_G = fake_quant_ste.__globals__\n",
        "run_time_error/os_exit_in_function.py": subs / "run_time_error" / "os_exit_in_function.py",
    })
    report = check_problem(path, jobs=2)
    failed = errors(report, "verdict")
    assert [Path(f.file).name for f in failed] == ["reflective.py"], failed
    shown = check_text.details(failed[0])
    assert "forbidden_construct" in shown and "__globals__" in shown
    notes = {Path(f.file).name: f for f in report.findings
             if f.level == "info" and "gate" in f.message}
    assert set(notes) == {"os_exit_in_function.py", "fake_quant_ste.py"}, report.findings
    assert "graded with the gate off" in notes["os_exit_in_function.py"].message
    assert "import of 'os'" in notes["os_exit_in_function.py"].message
    assert "never gated" in notes["fake_quant_ste.py"].message and not errors(report, "expected")

    off = check_problem(path, jobs=2, source_gate=False)
    assert errors(off, "verdict") == []
    gate_findings = [(Path(f.file).name, f.level) for f in off.findings if "gate" in f.message]
    assert gate_findings == [("reflective.py", "warning")], off.findings  # students would get RJ
    text = check_text.render(off)
    assert "source gate: off" in text and "source gate: off" not in check_text.render(report)
    values = [p.get("value") for p in junit.to_xml([report, off]).getroot().iter("property")]
    assert values == ["on", "off"]



def test_the_gate_checks_sources_in_many_threads_at_once():
    """CPython 3.11 shares the AST conversion's depth between threads (gh-106905): grades run
    side by side must not fail with SystemError in the gate. A garbage collector callback that
    yields the GIL makes threads switch in the middle of a conversion, as load does."""
    import gc
    import time
    from concurrent.futures import ThreadPoolExecutor

    source = "def f(x):\n    return " + "(" * 30 + "x" + ")" * 30 + "\n" + "y = [[[1]]]\n" * 100
    def switch(phase, info):
        time.sleep(0.0001)
    threshold = gc.get_threshold()
    gc.callbacks.append(switch)
    gc.set_threshold(50)
    try:
        with ThreadPoolExecutor(4) as pool:
            results = list(pool.map(lambda _: gate.check(source), range(300)))
    finally:
        gc.callbacks.remove(switch)
        gc.set_threshold(*threshold)
    assert all(r == [] for r in results)
