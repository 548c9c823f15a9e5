"""The course shipped with tensor-judge, as package data (read through importlib.resources).

In a built wheel this package holds problems/, hidden_tests/, submissions/ and
units/, mapped at build time from the repository's top-level folders of the
same names (setup.py): those folders are the only copy. In a source checkout
this directory holds only this file, and the judge uses the checkout itself.
"""
