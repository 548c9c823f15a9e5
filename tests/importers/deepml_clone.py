"""A small clone in Deep-ML's open-problems format, written for these tests (none of Deep-ML's own files).

`write_clone(root)` writes `root/questions/<N>_<slug>/` folders that exercise what the importer must
handle: a sentinel return (-1), a test's rounding, a wrong `expected_output`, a PyTorch variant,
several functions with seeds in the setup, a class with several prints and an f-string, a learner's
function that draws random numbers, a missing file, a starter that already solves the problem, an
unparsable test and a test on which the reference fails. Each test's `expected_output` is what its
reference prints, worked out here by running it, except where a test says otherwise on purpose.
"""
from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

# ---------------------------------------------------------------- question 1: one function, a sentinel

MAT_VEC = '''\
def mat_vec(A, v):
    if len(A[0]) != len(v):
        return -1
    return [sum(a * b for a, b in zip(row, v)) for row in A]
'''
MAT_VEC_STARTER = '''\
def mat_vec(A: list[list[float]], v: list[float]) -> list[float]:
    # Return A times v, or -1 when the shapes do not fit.
    pass
'''
MAT_VEC_TESTS = [
    "print(mat_vec([[1, 2], [3, 4]], [1, 1]))",
    "print(mat_vec([[1, 2]], [1, 2, 3]))",
    "import numpy as np\nprint(np.round(mat_vec([[0.1234567, 1.0]], [1.0, 0.5]), 3))",
    ("print(mat_vec([[2, 0], [0, 2]], [1, 1]))", "[2, 3]"),     # a wrong expected_output: the reference says [2, 2]
]
MAT_VEC_TORCH = '''\
import torch

def mat_vec(A, v):
    if A.shape[1] != v.shape[0]:
        return torch.tensor(-1)
    return A @ v
'''
MAT_VEC_TORCH_STARTER = '''\
import torch

def mat_vec(A: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    pass
'''
MAT_VEC_TORCH_TESTS = [
    "import torch\nres = mat_vec(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), torch.tensor([1.0, 1.0]))\nprint(res.tolist())",
    "import torch\nprint(mat_vec(torch.ones(1, 2), torch.ones(3)).item())",
]

# ---------------------------------------------------------------- question 2: several functions, seeds

ATTENTION = '''\
import numpy as np

def project(X, W):
    return X @ W

def attention(Q, K, V):
    scores = Q @ K.T / np.sqrt(K.shape[1])
    scores = scores - scores.max(axis=1, keepdims=True)
    weights = np.exp(scores) / np.exp(scores).sum(axis=1, keepdims=True)
    return weights @ V
'''
ATTENTION_STARTER = '''\
import numpy as np

def project(X: np.ndarray, W: np.ndarray) -> np.ndarray:
    pass

def attention(Q: np.ndarray, K: np.ndarray, V: np.ndarray) -> np.ndarray:
    pass
'''
ATTENTION_TESTS = [
    "import numpy as np\nnp.random.seed(42)\nX = np.random.randn(3, 4)\nW_q = np.random.randn(4, 4)\n"
    "W_k = np.random.randn(4, 4)\nW_v = np.random.randn(4, 4)\nQ = project(X, W_q)\nK = project(X, W_k)\n"
    "V = project(X, W_v)\nprint(np.round(attention(Q, K, V), 4))",
    "import numpy as np\nprint(attention(np.eye(2), np.eye(2), np.array([[1.0, 2.0], [3.0, 4.0]])))",
]

# ---------------------------------------------------------------- question 3: a class, prints, f-strings

RUNNING_MEAN = '''\
class RunningMean:
    def __init__(self, momentum=0.9):
        self.momentum = momentum
        self.mean = None
        self.count = 0

    def update(self, x):
        self.count += 1
        self.mean = x if self.mean is None else self.momentum * self.mean + (1 - self.momentum) * x
        return self.mean
'''
RUNNING_MEAN_STARTER = '''\
class RunningMean:
    def __init__(self, momentum=0.9):
        pass

    def update(self, x):
        pass
'''
RUNNING_MEAN_TESTS = [
    'rm = RunningMean(0.5)\nfor x in [1.0, 2.0, 3.0]:\n    rm.update(x)\nprint(f"mean={rm.mean:.4f}")\nprint(rm.count)',
    "rm = RunningMean()\nprint(rm.update(2.0), rm.update(4.0))",
]

# ---------------------------------------------------------------- question 4: the learner draws randomness

DROPOUT = '''\
import numpy as np

def dropout(x, p):
    keep = np.random.rand(*x.shape) >= p
    return x * keep / (1 - p)
'''
DROPOUT_STARTER = '''\
import numpy as np

def dropout(x: np.ndarray, p: float) -> np.ndarray:
    pass
'''
DROPOUT_TESTS = [
    "import numpy as np\nnp.random.seed(0)\nx = np.ones((2, 3))\nprint(dropout(x, 0.5))",
    # the setup draws after seeding and the learner draws too: its inputs alone cannot give this value
    "import numpy as np\nnp.random.seed(1)\nx = np.random.rand(2, 2)\nprint(dropout(x, 0.5))",
]

# ---------------------------------------------------------------- question 6: the starter solves it

DOUBLE = "def double(x):\n    return 2 * x\n"
DOUBLE_TESTS = ["print(double(3))", "print(double(-1.5))"]

# ---------------------------------------------------------------- question 7: tests that cannot be imported

HALVE = "def halve(x):\n    if x == 0:\n        raise ValueError('zero')\n    return x / 2\n"
HALVE_STARTER = "def halve(x: float) -> float:\n    pass\n"
HALVE_TESTS = [
    ("print(halve(4)", "2.0"),      # not valid Python
    ("print(halve(0))", "0"),       # the reference raises
    "print(halve(5))",
    "print(halve(-8))",
]


def write_clone(root: Path, *, without: tuple[int, ...] = ()) -> Path:
    """The clone at `root` (its questions/ folder and a `_template` the importer must skip)."""
    questions = root / "questions"
    _question(questions / "1_matrix-times-vector", 1, "Matrix Times Vector", "easy", "Linear Algebra",
              "Multiply a matrix $A$ by a vector $v$: $$y_i = \\sum_j A_{ij} v_j$$ Return -1 when the number of "
              "columns of $A$ is not the length of \\(v\\).",
              {"input": "A = [[1, 2], [3, 4]], v = [1, 1]", "output": "[3, 7]",
               "reasoning": "Row 1: 1 + 2 = 3; row 2: 3 + 4 = 7."},
              MAT_VEC_STARTER, MAT_VEC, MAT_VEC_TESTS,
              torch=(MAT_VEC_TORCH_STARTER, MAT_VEC_TORCH, MAT_VEC_TORCH_TESTS))
    _question(questions / "2_scaled-attention", 2, "Scaled Attention", "medium", "Deep Learning",
              "Project $X$ to queries, keys and values, then compute softmax$(QK^T/\\sqrt{d})V$.",
              {"input": "three projections of a (3, 4) input", "output": "a (3, 4) array", "reasoning": "..."},
              ATTENTION_STARTER, ATTENTION, ATTENTION_TESTS)
    _question(questions / "3_running-mean", 3, "Running Mean", "easy", "Machine Learning",
              "Keep an exponential running mean.", {"input": "momentum = 0.5", "output": "mean=2.2500",
                                                    "reasoning": "1, then 1.5, then 2.25."},
              RUNNING_MEAN_STARTER, RUNNING_MEAN, RUNNING_MEAN_TESTS)
    _question(questions / "4_dropout-mask", 4, "Dropout", "medium", "Deep Learning",
              "Zero each entry with probability $p$ and scale the rest by $1/(1-p)$.",
              {"input": "x = np.ones((2, 3)), p = 0.5", "output": "(random)", "reasoning": "..."},
              DROPOUT_STARTER, DROPOUT, DROPOUT_TESTS)
    broken = questions / "5_missing-solution"
    _question(broken, 5, "Missing Solution", "easy", "Linear Algebra", "...", None, DOUBLE, DOUBLE, DOUBLE_TESTS)
    (broken / "solution.py").unlink()
    _question(questions / "6_complete-starter", 6, "Double", "easy", "Linear Algebra", "Double `x`.", None,
              DOUBLE, DOUBLE, DOUBLE_TESTS)
    _question(questions / "7_halve", 7, "Halve", "easy", "Linear Algebra", "Halve `x`; 0 is an error.", None,
              HALVE_STARTER, HALVE, HALVE_TESTS)
    template = questions / "_template"
    template.mkdir(parents=True, exist_ok=True)
    (template / "meta.json").write_text("{}")
    for number in without:
        for folder in questions.glob(f"{number}_*"):
            _remove(folder)
    return root


def _question(folder: Path, number: int, title: str, difficulty: str, category: str, description: str,
              example: dict | None, starter: str, solution: str, tests: list, *,
              torch: tuple[str, str, list] | None = None) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    meta = {"id": str(number), "title": title, "difficulty": difficulty, "category": category,
            "contributor": [{"profile_link": "https://example.invalid", "name": "tests"}]}
    (folder / "meta.json").write_text(json.dumps(meta, indent=2))
    (folder / "description.md").write_text(description)
    (folder / "learn.md").write_text(f"## {title}\n\nThe idea, in a few lines.\n\n$$x = 1$$\n")
    (folder / "example.json").write_text(json.dumps(example or {"input": "", "output": "", "reasoning": ""}))
    _files(folder, starter, solution, tests)
    if torch is not None:
        (folder / "pytorch").mkdir(exist_ok=True)
        _files(folder / "pytorch", *torch)
        (folder / "tinygrad").mkdir(exist_ok=True)   # a variant this judge does not run
        _files(folder / "tinygrad", "def mat_vec(A, v):\n    pass\n", MAT_VEC, [])


def _files(folder: Path, starter: str, solution: str, tests: list) -> None:
    (folder / "starter_code.py").write_text(starter)
    (folder / "solution.py").write_text(solution)
    entries = []
    for test in tests:
        code, expected = test if isinstance(test, tuple) else (test, _printed(solution, test))
        entries.append({"test": code, "expected_output": expected})
    (folder / "tests.json").write_text(json.dumps(entries, indent=2))


def _printed(solution: str, test: str) -> str:
    """What the test prints after the solution, as Deep-ML's runner shows it."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(solution + "\n" + test, "<fixture>", "exec"), {})
    return out.getvalue().strip()


def _remove(folder: Path) -> None:
    import shutil

    shutil.rmtree(folder)
