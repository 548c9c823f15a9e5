"""Judging a submission: its tests' verdicts, its wrong values explained, the library object every face calls.

session (`Judge`: a problem set, a backend, prepared problems per id, its `Tutor`; `Judge.submit`, the
one way every face judges), prepared (`PreparedProblem`: cases, expected values, traps; judges and
records nothing), grading (a test's verdict from its calls, then the wrong values explained
together), explain (which mistakes explain a report's wrong values), diagnose (a wrong output named
by its relation to the expected one), mutants (one realistic mistake per mutant of a solution),
slips (the trusted solutions with one slip each), slipwords (a slip in the learner's words), repairs
(changes to the learner's file after which every value is right), suspects (the models explain
weighs), shrink (the smallest input that shows a wrong value), tampering (where a submission reaches
into the judge), batch (`judge grade`).
"""
