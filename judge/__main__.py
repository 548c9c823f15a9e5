"""`python -m judge` runs the command line, as the `judge` script does."""
from judge.cli import entry

entry()
