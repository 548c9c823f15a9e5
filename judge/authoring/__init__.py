"""For problem authors: checking a problem set, making new problems and starters, the mutation gate.

validate (`judge validate`: schema, the reference against every case, every known submission's
verdict), findings (`judge validate`'s findings as lines), scaffold (`judge new`: a problem's
skeleton, one file or a pack), starter (`judge start`: a starter file, an input to edit), gate (the
mutation gate: each mutant killed, equivalent or surviving), probes (the gate's oracle inputs, made
from a problem's own tests).
"""
