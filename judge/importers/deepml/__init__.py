"""Deep-ML's open problems as a problem set of this judge (`judge import deepml`, docs/deepml.md).

clone (reading a clone: questions, variants, their files), split (a test taken apart: setup for the
judge, the call for the sandbox, rounding for the tolerance), convert (a variant's tests made by running
its reference in the judge), values (printed text read as values; values as YAML inputs), writer (the
problem's files), importer (the whole import: write, check each test, validate each problem, report).
"""
