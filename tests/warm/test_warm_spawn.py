"""What starting a warm judge says: its idle timeout in a learner's words, and the one line `judge run` prints."""
from __future__ import annotations

from judge.warm import spawn
from judge.warm.daemon import DEFAULT_IDLE_S


def test_the_idle_timeout_is_said_in_minutes_from_one_minute_on():
    assert spawn.idle_words(DEFAULT_IDLE_S) == "15 minutes"
    assert spawn.idle_words(60) == "1 minute"
    assert spawn.idle_words(90) == "1.5 minutes"
    assert spawn.idle_words(30) == "30 seconds"
    assert spawn.idle_words(1) == "1 second"


def test_the_note_says_what_runs_when_it_leaves_and_how_to_stop_it():
    note = spawn.started_note(120)
    assert "\n" not in note and note.startswith("note: started the warm judge in the background")
    assert "torch" in note and "after 2 minutes idle" in note and "`judge serve --stop`" in note
