"""The HTTP API (FastAPI): submissions, problems' public parts and hints, accounts by bearer token, and the
instructors' views of their course (gradebook, similarity, analytics; the review pages are judge.service.review).

Fixed paths under /api/v1 (docs/service.md), one router per resource (judge.service.routes); every error
is JSON `{"error": {"status": N, "message": "..."}}` with its HTTP status (judge.service.responses), an
unexpected one and a database that does not answer (503, Retry-After) included. The OpenAPI description
is served at /api/v1/openapi.json; FastAPI's /docs and /redoc pages are not, since they load their
scripts from a CDN and the service works offline.
"""

from fastapi import FastAPI

from judge.service.config import ServiceConfig
from judge.service.guards import BodyLimit, HostCheck
from judge.service.queue import Queue
from judge.service.responses import AsciiJSON, add_error_handlers
from judge.service.review import add_review
from judge.service.routes.analytics import analytics_router
from judge.service.routes.context import PREFIX, ApiContext
from judge.service.routes.gradebook import gradebook_as_csv, gradebook_router
from judge.service.routes.health import health_router
from judge.service.routes.hints import hints_router
from judge.service.routes.problems import problems_router
from judge.service.routes.similarity import similarity_router
from judge.service.routes.submissions import submissions_router
from judge.service.storage import Store

ROUTERS = (health_router, problems_router, hints_router, submissions_router, gradebook_router, similarity_router,
           analytics_router)


def create_app(config: ServiceConfig, store: Store, queue: Queue, judge) -> FastAPI:
    """The API over `store` (accounts, submissions), `queue` (to workers) and `judge` (problems)."""
    app = FastAPI(title="tensor-judge", version="1", openapi_url=f"{PREFIX}/openapi.json", docs_url=None,
                  redoc_url=None, swagger_ui_oauth2_redirect_url=None, default_response_class=AsciiJSON)
    add_error_handlers(app, config.db_retry_after_s)
    ctx = ApiContext(config, store, queue, judge)
    for build_router in ROUTERS:
        app.include_router(build_router(ctx))
    add_review(app, store, ctx.starters, ctx.identify, lambda user, wide: gradebook_as_csv(store, user, wide),
               ctx.prints)
    app.add_middleware(BodyLimit, limit=config.max_request_bytes)
    app.add_middleware(HostCheck, allowed=config.allowed_hosts)
    return app
