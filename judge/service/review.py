"""The instructors' pages of the service, under /review: the course, a similarity pair side by side, a submission.

Server-rendered with Jinja2 on the API's own FastAPI app (the stack of
`judge serve`), with no script at all: an instructor signs in once by pasting
their token into /review/login, which keeps it in an HttpOnly, SameSite=Strict
cookie scoped to /review; every page looks the token up as the API does (a
revoked, rotated, expired or disabled one is signed out). Learners get 403:
they read their own submissions through the API only.

- `/review`: the course's similarity pairs across problems (most problems
  flagged first: at the threshold and unusual in the class, judge.service.classnorm;
  PAGE pairs a page), each problem's named mistakes and tests most failed with the
  learners behind them, and the gradebook (CSV, long or wide) to download;
- `/review/pair?a=ID&b=ID`: two submissions side by side, the lines they share
  (outside the starter code) marked, each learner's history on that problem
  and each report;
- `/review/submission/ID`: one submission, its report and its learner's history.

Everything shown that came from a submission or a report is escaped as every
face escapes it (judge.base.escape) and by Jinja2's autoescaping; the pages forbid
scripts and frames, and send referrers to their own origin only (with none at all,
a browser posts the sign-in form from origin `null`, which is refused).
"""
from __future__ import annotations

import datetime as dt
import urllib.parse
from dataclasses import dataclass
from typing import Callable

from fastapi import FastAPI, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from jinja2 import Environment, PackageLoader, select_autoescape
from markupsafe import Markup

from judge.base.escape import escape_controls
from judge.service.analytics import analytics
from judge.service.classnorm import UNUSUAL
from judge.service.similarity import by_problem, course_found, fingerprint, pair_similarity, shared_regions
from judge.service.storage import Store, Submission, User

COOKIE = "judge_review"
ROOT = "/review"
HEADERS = {"Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; "
                                      "frame-ancestors 'none'; base-uri 'none'",
           "X-Frame-Options": "DENY", "Referrer-Policy": "same-origin", "Cache-Control": "no-store",
           "X-Content-Type-Options": "nosniff"}
MAX_FORM_BYTES = 4096
PAGE = 50                   # similar pairs a page


@dataclass(frozen=True)
class Line:
    number: int
    text: str
    shared: bool


def add_review(app: FastAPI, store: Store, starters: Callable[[], dict[str, str]],
               identify: Callable[[str, str], User | None], gradebook_for: Callable[[User, bool], str],
               prints: Callable[..., frozenset[int]] = fingerprint) -> None:
    """The pages on `app`. `identify(token, client)` is the API's token lookup (rate limited alike);
    `starters()` maps problem ids to starter code; `gradebook_for(user, wide)` is the course's CSV;
    `prints` fingerprints sources (the API's, which keeps them)."""
    templates = Environment(loader=PackageLoader("judge.service", "templates"), autoescape=select_autoescape(),
                            finalize=_visible)
    templates.filters["utc"] = _utc

    def render(name: str, status: int = 200, **context) -> HTMLResponse:
        return HTMLResponse(templates.get_template(name).render(**context), status_code=status, headers=HEADERS)

    def instructor(request: Request) -> User | Response:
        token = request.cookies.get(COOKIE, "")
        client = request.client.host if request.client else ""
        user = identify(token, client) if token else None
        if user is None:
            response = RedirectResponse(f"{ROOT}/login", status_code=303, headers=HEADERS)
            response.delete_cookie(COOKIE, path=ROOT)
            return response
        if user.role != "instructor":
            return render("message.html", 403, title="Instructors only",
                          message="These pages are for instructors; learners read their own submissions "
                                  "through the API.")
        return user

    def visible(user: User, submission_id: str) -> tuple[Submission, User] | None:
        found = store.get(submission_id) if len(submission_id) <= 64 else None
        if found is None or found[1].course != user.course:
            return None
        return found

    @app.get(f"{ROOT}/login", response_class=HTMLResponse, include_in_schema=False)
    def login_form() -> Response:
        return render("login.html", error=None)

    @app.post(f"{ROOT}/login", include_in_schema=False)
    async def login(request: Request) -> Response:
        if not _same_origin(request):
            return render("message.html", 403, title="Refused", message="a sign-in from another site")
        body = await request.body()
        fields = urllib.parse.parse_qs(body[:MAX_FORM_BYTES].decode("utf-8", "replace"))
        token = (fields.get("token") or [""])[0].strip()
        client = request.client.host if request.client else ""
        user = identify(token, client) if token else None
        if user is None:
            return render("login.html", 401, error="unknown, revoked, expired or disabled token")
        if user.role != "instructor":
            return render("login.html", 403, error="this token is a learner's; these pages are for instructors")
        response = RedirectResponse(ROOT, status_code=303, headers=HEADERS)
        response.set_cookie(COOKIE, token, httponly=True, samesite="strict", path=ROOT, max_age=12 * 3600)
        return response

    @app.post(f"{ROOT}/logout", include_in_schema=False)
    def logout() -> Response:
        response = RedirectResponse(f"{ROOT}/login", status_code=303, headers=HEADERS)
        response.delete_cookie(COOKIE, path=ROOT)
        return response

    @app.get(ROOT, response_class=HTMLResponse, include_in_schema=False)
    def overview(request: Request, threshold: float = Query(0.8, ge=0.0, le=1.0),
                 unusual: float = Query(UNUSUAL, ge=0.0, le=100.0),
                 offset: int = Query(0, ge=0, le=1 << 31)) -> Response:
        user = instructor(request)
        if not isinstance(user, User):
            return user
        learners, submissions = store.course(user.course)
        found = course_found(by_problem(submissions), threshold, starters(), prints, unusual)
        names = {u.name: u.display for u in learners}
        return render("course.html", user=user, course=user.course, threshold=threshold, unusual=unusual,
                      pairs=found.pairs[offset:offset + PAGE], total=len(found.pairs), common=found.common,
                      offset=offset, page=PAGE, names=names, learners=learners, submissions=len(submissions),
                      analytics=analytics(store, user.course))

    @app.get(f"{ROOT}/gradebook.csv", include_in_schema=False)
    def gradebook_download(request: Request, wide: bool = False) -> Response:
        user = instructor(request)
        if not isinstance(user, User):
            return user
        name = f"{user.course}-gradebook{'-wide' if wide else ''}.csv"
        return Response(gradebook_for(user, wide), media_type="text/csv; charset=utf-8",
                        headers={**HEADERS, "Content-Disposition": f'attachment; filename="{name}"'})

    @app.get(f"{ROOT}/pair", response_class=HTMLResponse, include_in_schema=False)
    def pair(request: Request, a: str = Query(max_length=64), b: str = Query(max_length=64)) -> Response:
        user = instructor(request)
        if not isinstance(user, User):
            return user
        found = [visible(user, a), visible(user, b)]
        if None in found:
            return render("message.html", 404, title="Not found",
                          message="no such submission in your course")
        (sa, oa), (sb, ob) = found
        starter = starters().get(sa.problem, "") if sa.problem == sb.problem else ""
        ra, rb = shared_regions(sa.source, sb.source, starter)
        score = pair_similarity(sa.source, sb.source, starter, prints)
        sides = [_side(store, s, owner, regions) for s, owner, regions in ((sa, oa, ra), (sb, ob, rb))]
        return render("pair.html", user=user, course=user.course, score=score, sides=sides)

    @app.get(f"{ROOT}/submission/{{submission_id}}", response_class=HTMLResponse, include_in_schema=False)
    def submission(request: Request, submission_id: str) -> Response:
        user = instructor(request)
        if not isinstance(user, User):
            return user
        found = visible(user, submission_id)
        if found is None:
            return render("message.html", 404, title="Not found", message="no such submission in your course")
        side = _side(store, found[0], found[1], [])
        return render("submission.html", user=user, course=user.course, side=side)


def _side(store: Store, submission: Submission, owner: User, regions: list[tuple[int, int]]) -> dict:
    marked = {n for first, last in regions for n in range(first, last + 1)}
    lines = [Line(n, text, n in marked) for n, text in enumerate(submission.source.splitlines(), 1)]
    return {"submission": submission, "owner": owner, "lines": lines, "shared": len(marked),
            "history": store.history(owner.id, submission.problem), "report": submission.report or {}}


def _same_origin(request: Request) -> bool:
    """A sign-in posted from another site is refused (the cookie is SameSite, the form is not)."""
    origin = request.headers.get("origin")
    if origin is None:          # browsers send Origin with every cross-site POST; curl need not
        return True
    return urllib.parse.urlsplit(origin).netloc == request.headers.get("host", "")


def _utc(timestamp: float | None) -> str:
    if timestamp is None:
        return ""
    return dt.datetime.fromtimestamp(timestamp, dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S")


def _visible(value: object) -> object:
    """Every text a page shows made visible as in every face (judge.base.escape): autoescaping stops markup,
    not bidirectional or control characters."""
    if isinstance(value, str) and not isinstance(value, Markup):   # a macro's output is the page's own
        return escape_controls(value, keep="\n\t")
    return value
