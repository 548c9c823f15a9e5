"""TeX maths as readable terminal text: `$\\frac{1}{N}\\sum_{n=1}^{N} x_n$` becomes `(1/N) Σₙ₌₁ᴺ xₙ`.

Statements write formulas in TeX for the web page (KaTeX draws them there); a
terminal shows them through here (`judge show`). Covered: the commands
statements use (fractions, roots, sub- and superscripts, Greek letters,
operators and relations, `\\mathrm`-like fonts, spacing, sized delimiters).
Anything else keeps its TeX spelling, so nothing is lost, only less pretty.
"""
from __future__ import annotations

import re

_GREEK = {name: chr(code) for name, code in [
    ("alpha", 0x3B1), ("beta", 0x3B2), ("gamma", 0x3B3), ("delta", 0x3B4), ("epsilon", 0x3B5),
    ("varepsilon", 0x3B5), ("zeta", 0x3B6), ("eta", 0x3B7), ("theta", 0x3B8), ("vartheta", 0x3D1),
    ("iota", 0x3B9), ("kappa", 0x3BA), ("lambda", 0x3BB), ("mu", 0x3BC), ("nu", 0x3BD), ("xi", 0x3BE),
    ("pi", 0x3C0), ("rho", 0x3C1), ("sigma", 0x3C3), ("tau", 0x3C4), ("upsilon", 0x3C5), ("phi", 0x3C6),
    ("varphi", 0x3C6), ("chi", 0x3C7), ("psi", 0x3C8), ("omega", 0x3C9), ("Gamma", 0x393), ("Delta", 0x394),
    ("Theta", 0x398), ("Lambda", 0x39B), ("Xi", 0x39E), ("Pi", 0x3A0), ("Sigma", 0x3A3), ("Phi", 0x3A6),
    ("Psi", 0x3A8), ("Omega", 0x3A9)]}
_SYMBOLS = {
    "sum": "Σ", "prod": "Π", "int": "∫", "infty": "∞", "partial": "∂", "nabla": "∇", "ell": "ℓ",
    "cdot": "·", "times": "×", "div": "÷", "pm": "±", "mp": "∓", "ast": "∗", "circ": "∘", "odot": "⊙",
    "ne": "≠", "neq": "≠", "le": "≤", "leq": "≤", "ge": "≥", "geq": "≥", "approx": "≈", "sim": "∼",
    "equiv": "≡", "propto": "∝", "in": "∈", "notin": "∉", "subset": "⊂", "subseteq": "⊆", "cup": "∪",
    "cap": "∩", "to": "→", "rightarrow": "→", "leftarrow": "←", "mapsto": "↦", "Rightarrow": "⇒",
    "forall": "∀", "exists": "∃", "top": "ᵀ", "intercal": "ᵀ", "dots": "…", "ldots": "…", "cdots": "⋯",
    "|": "‖", "lVert": "‖", "rVert": "‖", "Vert": "‖", "lvert": "|", "rvert": "|", "mid": "|",
    "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
    "{": "{", "}": "}", "%": "%", "_": "_", "&": "&", "#": "#",
    "quad": "  ", "qquad": "    ", ",": " ", ";": " ", ":": " ", "!": "", " ": " ",
    "max": "max", "min": "min", "log": "log", "exp": "exp", "cos": "cos", "sin": "sin", "tanh": "tanh",
    "arg": "arg", "argmax": "argmax", "argmin": "argmin", "softmax": "softmax", "det": "det", "lim": "lim",
}
_FONTS = {"mathrm", "operatorname", "text", "textrm", "mathbf", "mathit", "mathsf", "mathtt", "boldsymbol",
          "textbf", "textit", "mathcal", "mathbb", "bm"}
_SIZES = {"big", "Big", "bigg", "Bigg", "left", "right", "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr"}
_SUPER = dict(zip("0123456789+-=()nijkNTtdxabcehlmoprsuvwDLMKBG",
                  "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁿⁱʲᵏᴺᵀᵗᵈˣᵃᵇᶜᵉʰˡᵐᵒᵖʳˢᵘᵛʷᴰᴸᴹᴷᴮᴳ"))
_SUB = dict(zip("0123456789+-=()aehijklmnoprstuvx", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ"))
_COMMAND = re.compile(r"\\([A-Za-z]+|.)")


def tex_text(tex: str) -> str:
    """`tex` (the inside of `$...$`) as plain Unicode text."""
    text, _ = _group(tex, 0, closing=None)
    return re.sub(r"[ \t]{2,}(?=\S)", lambda m: m.group(0) if len(m.group(0)) >= 4 else " ", text).strip()


def _group(tex: str, i: int, closing: str | None) -> tuple[str, int]:
    """Convert from `i` up to the `closing` brace (None: the end); returns (text, index after it)."""
    out: list[str] = []
    while i < len(tex):
        c = tex[i]
        if closing is not None and c == closing:
            return "".join(out), i + 1
        if c == "{":
            inner, i = _group(tex, i + 1, "}")
            out.append(inner)
        elif c in "^_":
            arg, i = _argument(tex, i + 1)
            out.append(_script(arg, _SUPER if c == "^" else _SUB, c))
        elif c == "\\":
            match = _COMMAND.match(tex, i)
            name = match.group(1)
            i = match.end()
            piece, i = _command(name, tex, i)
            out.append(piece)
        elif c == "~":
            out.append(" ")
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out), i


def _argument(tex: str, i: int) -> tuple[str, int]:
    """One argument: a braced group, a command, or a single character (spaces skipped)."""
    while i < len(tex) and tex[i] == " ":
        i += 1
    if i >= len(tex):
        return "", i
    if tex[i] == "{":
        return _group(tex, i + 1, "}")
    if tex[i] == "\\":
        match = _COMMAND.match(tex, i)
        return _command(match.group(1), tex, match.end())
    return tex[i], i + 1


def _command(name: str, tex: str, i: int) -> tuple[str, int]:
    if name in ("frac", "tfrac", "dfrac"):
        top, i = _argument(tex, i)
        bottom, i = _argument(tex, i)
        return f"({_atom(top)}/{_atom(bottom)})", i
    if name == "sqrt":
        body, i = _argument(tex, i)
        return f"√{_atom(body)}", i
    if name in _FONTS:
        body, i = _argument(tex, i)
        return body, i
    if name in _SIZES:
        return "", i
    if name in _GREEK:
        return _GREEK[name], i
    if name in _SYMBOLS:
        return _SYMBOLS[name], i
    # unknown: kept as written (a space keeps it apart from its argument)
    return f"\\{name}" + (" " if tex[i:i + 1] == "{" else ""), i


def _atom(text: str) -> str:
    """`text` as one operand: parenthesised unless it is a single word or number."""
    text = text.strip()
    return text if re.fullmatch(r"[\w.ᵀ√]+", text) else f"({text})"


def _script(text: str, table: dict[str, str], mark: str) -> str:
    if text == "ᵀ":   # k^\top
        return text
    if text and all(ch in table for ch in text):
        return "".join(table[ch] for ch in text)
    return f"{mark}{_atom(text)}" if text else ""


_DISPLAY = re.compile(r"\$\$(.+?)\$\$", re.S)
_INLINE = re.compile(r"(?<![\\$\w])\$(?=\S)([^$\n]+?)(?<=\S)\$(?![\w$])")


def replace_maths(markdown: str) -> str:
    """Markdown with each `$$...$$` block as its own indented line and each `$...$` as text."""
    markdown = _DISPLAY.sub(lambda m: "\n\n```\n" + tex_text(" ".join(m.group(1).split())) + "\n```\n\n", markdown)
    return _INLINE.sub(lambda m: tex_text(m.group(1)), markdown)
