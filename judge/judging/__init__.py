"""Judging a submission: its tests' verdicts, its wrong values explained, the library object every face calls.

session (`Judge`: prepared problems per id; `Judge.submit`, the one way every face judges), prepared
(`PreparedProblem`: cases, expected values, traps), expected (the reference's observations), grading
(a run's tests judged in order, then the wrong values explained together), verdict (one test's verdict
from its calls), traps (running the known mistakes and keeping their outputs), explain (the rules that
prove a mistake), evidence (what each model's output proves on each test), equality (value equality as
the checks see it), ranking (what is tried first), side_by_side (two mistakes leaf by leaf),
repair_search (changes of the learner's file that explain), wording (how each finding becomes a
sentence), diagnose (relations to the expected value), mutants and syntax (one realistic mistake per
mutant), slips and slipwords (the trusted solutions with one slip, in the learner's words), repairs
(changes to the learner's file), suspects (the models explain weighs and their outputs), shrink (the
smallest input that shows a wrong value), tampering (where a submission reaches into the judge), batch
(`judge grade`), budget (how long a report waits for its diagnosis).
"""
