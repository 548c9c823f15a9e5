"""The `judge` command: commands (the click group, assembled), group (its error handling and lazy judge),
learner, run, author and server (the commands by audience, each a few lines over the library), index
(`judge list` answered from an index beside the cache, standard library only on a hit), watch (`judge run
--watch`). The program's entry point, the warm path first, is judge/__main__.py.
"""
