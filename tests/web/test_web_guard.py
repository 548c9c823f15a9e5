"""Who may talk to `judge serve`: the token, the Host header (DNS rebinding) and the Origin header."""
from __future__ import annotations

from judge.web.guard import Guard, new_token

GUARD = Guard(token="s3cret-token", port=8765)
OWN = {"host": "127.0.0.1:8765"}


def test_the_token_is_accepted_from_query_header_or_cookie():
    assert GUARD.refusal(OWN, "token=s3cret-token") is None
    assert GUARD.refusal({**OWN, "x-judge-token": "s3cret-token"}, "") is None
    assert GUARD.refusal({**OWN, "cookie": "other=1; judge_token_8765=s3cret-token"}, "") is None
    assert GUARD.refusal({"host": "localhost:8765"}, "token=s3cret-token") is None


def test_no_token_or_a_wrong_one_is_refused():
    for headers, query in [(OWN, ""), (OWN, "token=s3cret"), (OWN, "token=s3cret-token-and-more"),
                           ({**OWN, "x-judge-token": "nope"}, ""),
                           ({**OWN, "cookie": "judge_token_9999=s3cret-token"}, ""),  # another server's cookie
                           ({**OWN, "cookie": 'judge_token_8765="unterminated'}, "")]:
        assert "token" in GUARD.refusal(headers, query)


def test_a_foreign_host_is_refused_even_with_the_token():
    # DNS rebinding: evil.example resolves to 127.0.0.1; the browser still sends Host: evil.example.
    for host in ("evil.example:8765", "127.0.0.1:8766", "127.0.0.1", "", "0.0.0.0:8765"):
        assert "own address" in GUARD.refusal({"host": host}, "token=s3cret-token")


def test_a_foreign_origin_is_refused_even_with_the_token():
    for origin in ("http://evil.example", "http://127.0.0.1:9999", "null", "https://127.0.0.1:8765"):
        reason = GUARD.refusal({**OWN, "origin": origin, "x-judge-token": "s3cret-token"}, "")
        assert reason == "requests from another site are refused"
    assert GUARD.refusal({**OWN, "origin": "http://127.0.0.1:8765", "x-judge-token": "s3cret-token"}, "") is None
    assert GUARD.refusal({**OWN, "origin": "http://localhost:8765", "x-judge-token": "s3cret-token"}, "") is None


def test_tokens_are_random_and_long():
    tokens = {new_token() for _ in range(20)}
    assert len(tokens) == 20
    assert all(len(t) >= 40 for t in tokens)
