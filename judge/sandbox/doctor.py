"""`judge doctor`: which isolation layers are active on this machine, and why any is not.

Static probes say what the machine offers; a real sandboxed run of a trivial
program says what the child actually got, so a layer that probes fine but
fails when applied is reported as missing, with the reason. Only layers the
child reports active are shown as active: the scratch line, for one, claims a
size limit only when the tmpfs was really mounted.
"""
from __future__ import annotations

from pathlib import Path

from judge.runs.contract import Limits, Program
from judge.runs.calls import Call
from judge.sandbox.isolation import LAYERS, LayerStatus, probe_all
from judge.sandbox.runner import Sandbox

_PROBE = "def probe():\n    return 1\n"


def examine(protect: tuple[Path, ...] = (), disable: tuple[str, ...] = ()) -> list[LayerStatus]:
    """The status of every layer, as applied in a real child."""
    static = {s.name: s for s in probe_all()}
    with Sandbox(protect=protect, disable=disable) as sandbox:
        result = sandbox.run(Program(_PROBE, "probe.py", "probe"), [Call(args=())], Limits())
    failed = {f.split(":", 1)[0]: f.split(":", 1)[1].strip() for f in result.isolation.failed}
    statuses = []
    for layer in LAYERS:
        offered = static[layer.name]
        if layer.name in result.isolation.active:
            statuses.append(LayerStatus(layer.name, True, offered.detail if offered.detail != "available"
                                        else f"blocks {layer.blocks}"))
        else:
            # The machine's own reason (e.g. why user namespaces are refused) says more than the child's errno.
            why = offered.detail if not offered.active else failed.get(layer.name, "not reported by the child")
            statuses.append(LayerStatus(layer.name, False, f"{why}; not blocked: {layer.blocks}"))
    return statuses
