"""One learner's records and what is derived from them: every face asks the `Tutor`, none opens the database.

tutor (`Tutor`: status, hints, solutions, quiz answers, history, and what is recorded), progress (the
SQLite progress database), history (attempts' code: show, diff, restore), overview (`judge
progress`: solved per unit and tag, streak, next problem), units (course units: problems in order,
self-test questions, completion), hints (`judge hint`: the next hint, the level reached), editorial
(`judge solution`: reference and editorial, earned or confirmed).
"""
