"""judge/judging/tampering.py: what a submission's own source does to reach into the judge or the interpreter.

Each rule on a small source; honest idioms never; every accepted known submission and every
correct file of the real-code corpus clean; the attack files that tamper flagged.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from judge.judging.tampering import CONFIGURATION, MAX_FINDINGS, RULES, Tampering, collect, scan

REPO = Path(__file__).resolve().parents[2]
ATTACKS = REPO / "tests" / "attacks"


def found(source: str) -> list[str]:
    return [t.text() for t in scan(textwrap.dedent(source))]


def test_a_finding_names_its_line():
    assert Tampering(3, "rebinds x").text() == "line 3: rebinds x"
    assert Tampering(None, "rebinds x").text() == "rebinds x"
    assert found("import numpy._core.numeric as n\nn.builtins = None\n") == \
        ["line 2: rebinds numpy._core.numeric.builtins, an attribute of a library module"]


@pytest.mark.parametrize("source, expected", [
    # the judge's modules: imported, fetched by name, through sys.modules
    ("import judge.runs.calls\n", "line 1: reaches into the judge (judge.runs.calls)"),
    ("from judge import wire\n", "line 1: reaches into the judge (judge)"),
    ("import importlib\nm = importlib.import_module('judge.base.encoding')\n", "line 2: reaches into the judge (judge.base.encoding)"),
    ("m = __import__('judge.base.encoding')\n", "line 1: reaches into the judge (judge.base.encoding)"),
    ("import sys\nh = sys.modules.get('judge.runs.calls')\n",
     "line 2: reaches into the judge (judge.runs.calls through sys.modules)"),
    ("import sys\nh = sys.modules['judge.runs.calls']\n",
     "line 2: reaches into the judge (judge.runs.calls through sys.modules)"),
    ("import sys\nfor m in list(sys.modules.values()):\n    pass\n", "line 2: fetches modules through sys.modules"),
    ("from sys import modules\nm = modules['numpy']\n", "line 2: fetches modules through sys.modules"),
    # frames
    ("import sys\ndef f():\n    return sys._getframe(1)\n",
     "line 3: reads frames that are not its own (sys._getframe)"),
    ("import inspect\nf = inspect.currentframe()\n",
     "line 2: reads frames that are not its own (inspect.currentframe)"),
    ("from inspect import stack\ns = stack()\n", "line 1: reads frames that are not its own (inspect.stack)"),
    ("import inspect\ns = inspect.getouterframes(None)\n",
     "line 2: reads frames that are not its own (inspect.getouterframes)"),
    ("def f(e):\n    return e.__traceback__.tb_frame\n", "line 2: reads frames that are not its own (.tb_frame)"),
    ("def f(g):\n    return g.gi_frame.f_back\n", "line 2: reads frames that are not its own (.f_back)"),
    ("def f(c):\n    return c.cr_frame\n", "line 2: reads frames that are not its own (.cr_frame)"),
    # gc, tracing
    ("import gc\nobjects = gc.get_objects()\n", "line 2: walks the garbage collector's objects (gc.get_objects)"),
    ("import gc\nr = gc.get_referrers(1)\n", "line 2: walks the garbage collector's objects (gc.get_referrers)"),
    ("import sys\nsys.settrace(None)\n", "line 2: sets a trace or profile function (sys.settrace)"),
    ("import threading\nthreading.setprofile(None)\n",
     "line 2: sets a trace or profile function (threading.setprofile)"),
    # raw memory
    ("import ctypes\n", "line 1: uses ctypes: raw memory"),
    ("import numpy as np\np = np.ctypeslib.as_array\n", "line 2: uses numpy.ctypeslib.as_array: raw memory"),
    ("class Raw:\n    def __init__(self, a):\n        self.__array_interface__ = {}\n",
     "line 3: defines __array_interface__: an array over any address in memory"),
    ("spec = {'__array_interface__': {'data': (0, False)}}\n",
     "line 1: defines __array_interface__: an array over any address in memory"),
    ("class Raw:\n    __array_struct__ = None\n",
     "line 2: defines __array_struct__: an array over any address in memory"),
    ("import os, stat\nok = stat.S_ISSOCK(os.fstat(3).st_mode)\n",
     "line 2: looks for the judge's channel among open files (stat.S_ISSOCK)"),
    # library modules and classes rebound
    ("import torch\ntorch.autograd.grad = None\n",
     "line 2: rebinds torch.autograd.grad, an attribute of a library module"),
    ("import numpy as np\nnp.array_equal = lambda *a: True\n",
     "line 2: rebinds numpy.array_equal, an attribute of a library module"),
    ("import json\njson.JSONEncoder = None\n", "line 2: rebinds json.JSONEncoder, an attribute of a library module"),
    ("import torch\ntorch.Tensor.__eq__ = None\n",
     "line 2: rebinds torch.Tensor.__eq__, an attribute of a library class"),
    ("from torch import Tensor\nTensor.__eq__ = None\n",
     "line 2: rebinds torch.Tensor.__eq__, an attribute of a library class"),
    ("import builtins\nbuiltins.isinstance = None\n",
     "line 2: rebinds builtins.isinstance, an attribute of a library module"),
    ("import numpy as np\nsetattr(np, 'allclose', None)\n",
     "line 2: rebinds numpy.allclose, an attribute of a library module"),
    ("import numpy as np\ndelattr(np, 'allclose')\n",
     "line 2: rebinds numpy.allclose, an attribute of a library module"),
    ("import numpy as np\ndel np.allclose\n", "line 2: rebinds numpy.allclose, an attribute of a library module"),
    ("import numpy as np\nnp.__dict__['allclose'] = None\n",
     "line 2: rebinds numpy.allclose, an attribute of a library module"),
    ("import torch\nF = torch.nn.functional\nF.relu = None\n",
     "line 3: rebinds torch.nn.functional.relu, an attribute of a library module"),
    ("import judge.runs.calls\njudge.runs.calls.run_call = None\n",
     "line 2: rebinds judge.runs.calls.run_call, an attribute of the judge's module"),
    ("x = __builtins__\n", "line 1: reaches the interpreter's builtins through __builtins__"),
    # torch's operators and dispatch
    ("import torch\nlib = torch.library.Library('aten', 'IMPL')\n",
     "line 2: uses torch.library.Library: registers or overrides torch operators"),
    ("from torch.library import impl\n", "line 1: uses torch.library: registers or overrides torch operators"),
    ("import torch\nwith torch._C.DisableTorchFunction():\n    pass\n",
     "line 2: reaches torch's internals (torch._C.DisableTorchFunction)"),
    ("class T:\n    def __torch_function__(self, func, types, args=(), kwargs=None):\n        pass\n",
     "line 2: defines __torch_function__: intercepts torch's calls"),
    ("from torch.overrides import TorchFunctionMode\nclass M(TorchFunctionMode):\n    pass\n",
     "line 2: subclasses TorchFunctionMode: a mode that sees every torch call"),
    # lying classes, class walks
    ("class E(Exception):\n    @property\n    def __class__(self):\n        return ValueError\n",
     "line 3: sets __class__: an object that lies about its class"),
    ("class E(Exception):\n    __class__ = ValueError\n",
     "line 2: sets __class__: an object that lies about its class"),
    ("class ValueError(Exception):\n    pass\n",
     "line 1: defines a class named ValueError, as a builtin exception is"),
    ("every = object.__subclasses__()\n", "line 1: walks every class through __subclasses__()"),
])
def test_each_rule_on_a_small_source(source, expected):
    assert expected in found(source)


def test_rules_have_distinct_keys_and_a_wording():
    keys = [rule.key for rule in RULES]
    assert len(keys) == len(set(keys))
    assert all(rule.wording for rule in RULES)


HONEST = {
    "typing and dataclasses": """
        from __future__ import annotations
        import dataclasses, enum, functools, typing
        from typing import NamedTuple, TypeVar
        T = TypeVar("T")

        @dataclasses.dataclass(frozen=True)
        class Box:
            value: int
            def __post_init__(self):
                object.__setattr__(self, "value", int(self.value))

        class Colour(enum.Enum):
            RED = 1

        class P(NamedTuple):
            x: int

        @functools.lru_cache(maxsize=None)
        def f(n: int) -> int:
            return n
        """,
    "logging, warnings, traceback, inspect.signature": """
        import inspect, logging, traceback, warnings
        log = logging.getLogger(__name__)
        log.setLevel(logging.INFO)
        logging.basicConfig(level=logging.WARNING)
        warnings.filterwarnings("ignore", category=UserWarning)

        def g(x):
            try:
                {}["k"]
            except KeyError as exc:
                traceback.format_exc()
                traceback.extract_tb(exc.__traceback__)
            assert list(inspect.signature(g).parameters) == ["x"]
            log.info("shape %s", x.shape)
            return x
        """,
    "torch configuration and modules": """
        import numpy as np
        import torch
        import torch.nn.functional as F
        from torch import nn
        from einops import rearrange
        torch.manual_seed(0)
        torch.set_grad_enabled(True)
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
        torch.backends.cuda.matmul.allow_tf32 = False
        np.set_printoptions(precision=3)
        np.random.seed(0)

        class Head(nn.Module):
            def __init__(self, d):
                super().__init__()
                self.proj = nn.Linear(d, d)
                self.proj.weight.data = torch.zeros(d, d)
                self.scale = d ** -0.5

            def forward(self, x):
                print(x)
                y = torch.func.vmap(lambda r: r * self.scale)(x)
                return F.softmax(rearrange(y, "b n d -> b d n"), dim=-1)

        @torch.no_grad()
        def run(x):
            out = x.clone()
            out.data = out.data * 2
            return out
        """,
    "the submission's own names": """
        import numpy as np
        CACHE = {}
        class Config:
            pass
        Config.size = 3
        config = Config()
        config.size = 4

        def helper(x):
            return x
        helper.calls = 0

        def f(x):
            helper.calls += 1
            arr = np.zeros(3)
            arr.shape = (3, 1)
            return x
        """,
}


@pytest.mark.parametrize("name", sorted(HONEST))
def test_honest_idioms_are_not_tampering(name):
    assert found(HONEST[name]) == []


def test_configuration_flags_are_exempt_and_listed():
    assert "torch.backends.cudnn.deterministic" in CONFIGURATION
    assert found("import torch\ntorch.backends.cudnn.allow_tf32 = False\n") == []
    assert found("import torch\ntorch.backends.cudnn.something_else = False\n") != []


def test_source_that_does_not_parse_has_no_findings():
    assert scan("def f(:\n") == ()
    assert scan("x = " + "(" * 500 + "1" + ")" * 500) == ()


def test_findings_are_one_per_line_and_rule_in_line_order_and_capped():
    texts = found("import sys\nf = sys._getframe().f_back.f_globals\n")
    assert len(texts) == 1 and texts[0].startswith("line 2: reads frames that are not its own")
    many = "import numpy as np\n" + "".join(f"np.a{i} = {i}\n" for i in range(50))
    texts = found(many)
    assert len(texts) == MAX_FINDINGS and texts[0].startswith("line 2: ") and texts[-1].startswith("line 21: ")


def test_collect_joins_the_scan_and_what_the_child_reported_once_each():
    source = "import gc\nx = gc.get_objects()\n"
    got = collect(source, ["a trace function was left set", "a trace function was left set", "bidi \u202e"])
    assert got == ("line 2: walks the garbage collector's objects (gc.get_objects)",
                   "a trace function was left set", "bidi \\u202e")
    assert collect("x = 1\n", []) == ()
    assert collect(None, ["said"]) == ("said",)
    assert len(collect(None, [f"r{i}" for i in range(100)])) == MAX_FINDINGS


def _files(*patterns: str) -> list[Path]:
    return sorted(p for pattern in patterns for p in REPO.glob(pattern))


CLEAN = _files("tests/realcode/*/correct/*.py", "submissions/*/accepted/*.py")


def test_the_clean_corpus_is_there():
    assert len(CLEAN) > 50


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: str(p.relative_to(REPO)))
def test_accepted_and_correct_files_are_clean(path):
    assert scan(path.read_text(encoding="utf-8")) == ()


# Each attack that reaches into the judge or the interpreter, and the rule that shows it.
TAMPERING_ATTACKS = {
    "harness_frame": "reads frames", "gc_scan": "walks the garbage collector's objects",
    "hide_mutation": "reaches into the judge (judge.runs.calls", "rebind_judge_modules": "rebinds judge.runs.calls.run_call",
    "raw_memory_forgery": "defines __array_interface__", "array_interface_read": "defines __array_interface__",
    "forge_gradients": "rebinds torch.autograd.grad", "torch_dispatch_mode": "subclasses TorchDispatchMode",
    "torch_function_mode": "subclasses TorchFunctionMode", "tensor_subclass": "defines __torch_function__",
    "trace_calls": "sets a trace or profile function", "ctypes_poke": "uses ctypes",
    "patch_judge_class": "walks every class", "generator_frame": "reads frames", "traceback_frame": "reads frames",
    "forged_frame_caller": "reads frames", "borrowed_code": "reads frames", "logging_frames": "reads frames",
    "poisoned_traceback": "rebinds traceback.linecache", "monkeypatch_comparators": "rebinds numpy.allclose",
    "nan_times": "rebinds time.perf_counter", "import_judge": "reaches into the judge (judge.",
    "fake_value_error": "defines a class named ValueError", "fake_memory_error": "defines a class named MemoryError",
    "done_early": "looks for the judge's channel",
}
# Attacks on the operating system's walls (files, processes, memory, output): nothing to see in the source.
HONEST_LOOKING = {"legit_introspection", "infinite_loop", "memory_bomb", "memo_by_shape", "spot_the_probe",
                  "lying_object", "network", "read_hidden_direct", "fork_bomb"}


@pytest.mark.parametrize("name", sorted(TAMPERING_ATTACKS))
def test_tampering_attacks_are_flagged(name):
    texts = found((ATTACKS / f"{name}.py").read_text(encoding="utf-8"))
    assert any(TAMPERING_ATTACKS[name] in t for t in texts), texts


@pytest.mark.parametrize("name", sorted(HONEST_LOOKING))
def test_attacks_on_the_walls_show_no_tampering(name):
    assert found((ATTACKS / f"{name}.py").read_text(encoding="utf-8")) == []


def test_scanning_prints_none_of_the_sources_warnings():
    """An invalid escape warns when parsed: the child prints that, in the submission's output, not the judge."""
    import subprocess
    import sys

    code = "from judge.judging.tampering import scan; scan('x = \"\\\\d\"\\n')"
    done = subprocess.run([sys.executable, "-W", "default", "-c", code], capture_output=True, text=True, timeout=60,
                          cwd=REPO)
    assert done.returncode == 0 and done.stderr == "", done.stderr
