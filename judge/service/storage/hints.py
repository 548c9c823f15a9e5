"""Hint levels in the database: how far each learner has gone in each problem's hints, one level at a time."""
from __future__ import annotations

import time

from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from judge.base.errors import ConfigError
from judge.service.storage.schema import HintRow


class HintTable:
    """The store's part that records the hints given (see the module)."""

    engine: Engine

    def hints_given(self, user_id: int, problem: str) -> int:
        """The highest hint level `user_id` has been given on `problem` (0: none)."""
        with Session(self.engine) as session:
            row = session.get(HintRow, (user_id, problem))
            return row.level if row is not None else 0

    def next_hint(self, user_id: int, problem: str, levels: int) -> int:
        """Give the next hint level (staying on the last, `levels`) and return it."""
        for _ in range(3):     # two first requests at once: one inserts, the other retries as an update
            try:
                with Session(self.engine) as session, session.begin():
                    row = session.get(HintRow, (user_id, problem), with_for_update=True)
                    if row is None:
                        session.add(HintRow(user_id=user_id, problem=problem, level=1, updated_at=time.time()))
                        return 1
                    row.level, row.updated_at = min(row.level + 1, levels), time.time()
                    return row.level
            except IntegrityError:
                continue
        raise ConfigError("could not record the hint level; try again")

