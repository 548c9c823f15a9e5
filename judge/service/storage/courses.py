"""Courses in the database: which exist (an account is in it or a course file defines it), and each
course file (judge.service.course) as loaded, so every process of the service reads the same one."""
from __future__ import annotations

import time

from sqlalchemy import select
from sqlalchemy.engine import Engine
from sqlalchemy.orm import Session

from judge.base.errors import ConfigError
from judge.service.storage.schema import CourseRow, UserRow


class CourseTable:
    """The store's part that knows courses and keeps their files (see the module)."""

    engine: Engine

    def courses(self) -> list[str]:
        """Every course an account is in or a course file defines."""
        with Session(self.engine) as session:
            found = set(session.scalars(select(UserRow.course).where(UserRow.course != "",
                                                                     UserRow.deleted_at.is_(None))))
            found |= set(session.scalars(select(CourseRow.name)))
        return sorted(found)

    def known_course(self, course: str) -> None:
        """A ConfigError unless `course` has an account or a course file: a typo reads as one line."""
        if course not in self.courses():
            known = ", ".join(self.courses()) or "none yet"
            raise ConfigError(f"no course {course!r} (courses: {known})")

    def set_course(self, name: str, definition: str, file: str) -> None:
        with Session(self.engine) as session, session.begin():
            row = session.get(CourseRow, name)
            if row is None:
                session.add(CourseRow(name=name, definition=definition, file=file, loaded_at=time.time()))
            else:
                row.definition, row.file, row.loaded_at = definition, file, time.time()

    def course_definition(self, name: str) -> tuple[str, str] | None:
        """The course file's YAML and where it was loaded from; None when the course has none."""
        with Session(self.engine) as session:
            row = session.get(CourseRow, name)
            return (row.definition, row.file) if row is not None else None

