"""The vocabulary every other package shares: plain data and small helpers, importing nothing else of the judge.

outcomes (the verdicts), report (a judged submission's results and its JSON form), submission (the
learner's file, decoded once), encoding (the plain format values cross the sandbox in), leaves
(walking returned values), numerics (the one tolerance rule), yamlfile (YAML with line numbers),
errors (the one-line errors), escape (hidden characters made visible), quiet (warnings of trusted
code kept from every face), wording (names in a learner's words), lazy (package names loaded on
first use).
"""
