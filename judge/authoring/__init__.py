"""For problem authors: checking a problem set, making new problems and starters, the mutation gate.

validate (`judge validate`: schema, the reference against every case, every known submission's
verdict, one method per aspect), diagnostics (what each aspect found), naming (what each known wrong
submission was named), messages (a report, a survivor and the gate in one line), differences (where
observations differ), timing (the time limit's aspects), schema (how a problem's files fit the set),
findings (`judge validate`'s findings as lines), scaffold (`judge new`: a problem's
skeleton, one file or a pack), starter (`judge start`: a starter file, an input to edit), gate (the
mutation gate: each mutant killed, equivalent or surviving), probes (the gate's oracle inputs, made
from a problem's own tests).
"""
