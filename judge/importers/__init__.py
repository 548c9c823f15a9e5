"""Importers: other judges' problem sets turned into problem sets of this judge.

deepml (`judge import deepml SOURCE -o DIR`: a clone of Deep-ML's open problems, its tests split into
inputs the judge draws and a call the sandbox runs, each problem validated as it is written).
"""
