"""The problem model: problems as data, read from YAML, and the cases and expected values made from them.

problem (a problem's YAML -> typed `Problem` and `Hidden` tests, errors as file:line: field: message),
readers (single YAML fields read and checked), generators (declarative input generators), compose (inputs made by another problem's reference),
cases (tests -> concrete cases and the calls each check needs), rules (which check each statement
rule licenses), solution (trusted code loaded without writing into the problem set), locate (which
problem set is in use; installed problem packs), layout (a set's files' stamp), cache (reference
outputs cached on disk), problemset (`ProblemSet`: a set's problems, broken files named, listings,
public examples).
"""
