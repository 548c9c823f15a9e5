"""`python -m judge` runs the command line, as the `judge` script does (warm path included)."""
from judge.entry import entry

entry()
