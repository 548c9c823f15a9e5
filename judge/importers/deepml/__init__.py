"""Deep-ML's open problems as a problem set of this judge (`judge import deepml`, docs/deepml.md).

clone (reading a clone: questions, variants, their files), split (a test taken apart: setup for the
judge, the call for the sandbox), printed (each print's value and the rounding it applied, for the
tolerance), facts (what a variant says of itself: entry point, signature, example), convert (a variant's
tests made by running its reference in the judge), values (printed text read as values; values as YAML inputs), writer (the
problem's files), importer (the whole import: write, check each test, validate each problem, report).
"""
