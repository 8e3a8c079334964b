"""The web app: server-rendered pages and the JSON API behind them, over one store.

:func:`create_app` builds it (FastAPI + Jinja2 templates); ``arena web`` serves it alone
over a local database and ``arena serve`` beside the gRPC services. Everything it serves
ships in this package (templates, CSS, a little JavaScript): no CDN, no web font, no
script from elsewhere. FastAPI's interactive docs would load theirs from a CDN, so they
are off; the OpenAPI description itself is at ``/openapi.json``.

The routes are synchronous: FastAPI runs them in its thread pool, so a slow query never
holds up the event loop (which ``arena serve`` shares with its gRPC services). The live
feeds are the exception: they wait in the loop, fed by one reader per match
(:mod:`arena.app.live`), and have caps. What of a match is shown, and when, is
:mod:`arena.app.visibility`'s rule.
"""

from __future__ import annotations

import asyncio
import threading

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.sessions import SessionMiddleware

from arena.app.live import PENDING_LIMIT_S
from arena.app.records import Store
from arena.app.signin import SESSION_S, SignIns
from arena.app.tv import Tv
from arena.errors import ArenaError
from leaderboard.web import authors, graphs, pages, replay, travellers, tv
from leaderboard.web.authors import session_secret
from leaderboard.web.common import HERE, TEMPLATES, error_response


def _validation_message(error: RequestValidationError) -> str:
    """The first thing wrong with a request, in one line: ``limit: Input should be ...``."""
    problems = []
    for item in error.errors()[:3]:
        where = ".".join(str(part) for part in item.get("loc", ()) if part not in ("query", "path"))
        problems.append(f"{where}: {item.get('msg', 'invalid')}" if where else str(item.get("msg")))
    return "; ".join(problems) or "bad request"


def warm_templates() -> None:
    """Compile every template now (Jinja keeps them, once per process), so that no visitor's
    first request waits for it: the first view of the home page spent most of its time there."""
    for name in TEMPLATES.env.list_templates(extensions=["html"]):
        TEMPLATES.env.get_template(name)


def warm_routes(app: FastAPI) -> None:
    """Answer one request now, in a thread of its own: at the first request FastAPI works out
    every route's parameters and anyio loads its thread pool, 20 to 30 ms of CPU that would
    otherwise hold the event loop ``arena serve`` shares with its match clocks."""

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(_message: object) -> None:
        return None

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
             "scheme": "http", "path": "/leaderboard", "raw_path": b"/leaderboard",
             "query_string": b"", "root_path": "", "headers": [], "client": ("127.0.0.1", 0),
             "server": ("127.0.0.1", 80)}
    warming = threading.Thread(target=asyncio.run, args=(app(scope, receive, send),))
    warming.start()
    warming.join()


def create_app(store: Store, *, live_wait_s: float = PENDING_LIMIT_S) -> FastAPI:
    """The web app over ``store`` (kept in ``app.state.store`` for every router): registers
    the routers (:mod:`leaderboard.web.pages`, :mod:`leaderboard.web.replay`), which import
    only what the app's modules share (:mod:`leaderboard.web.common`), never this module."""
    app = FastAPI(title="Card Arena", version="1",
                  description="Leaderboards, bots, tournaments and matches of a Card Arena "
                  "(read-only). Every page has its data as JSON under /api/ (docs/web.md).",
                  docs_url=None, redoc_url=None, openapi_url="/openapi.json")
    app.add_middleware(SessionMiddleware, secret_key=session_secret(),
                       session_cookie="arena_session", max_age=SESSION_S, same_site="lax")
    app.state.store = store
    app.state.sign_ins = SignIns()  # the throttle on wrong tokens, the sessions signed out
    app.state.tv = Tv()  # the featured live match, the same for every viewer
    app.state.reports = pages.ReportCache()
    app.state.feeds = replay.live_feeds(store, live_wait_s)  # a reader per followed match, caps
    warm_templates()
    app.mount("/static", StaticFiles(directory=str(HERE / "static")), name="static")
    app.include_router(pages.router)
    app.include_router(replay.router)
    app.include_router(authors.router)
    app.include_router(tv.router)
    app.include_router(travellers.router)
    app.include_router(graphs.router)

    @app.exception_handler(ArenaError)
    async def _refused(request: Request, error: ArenaError) -> Response:  # arena.errors' table
        return error_response(request, error.kind.http_status, str(error))

    @app.exception_handler(RequestValidationError)
    async def _bad_request(request: Request, error: RequestValidationError) -> Response:
        return error_response(request, 422, _validation_message(error))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, error: StarletteHTTPException) -> Response:
        message = str(error.detail) if error.status_code != 404 or error.detail != "Not Found" \
            else f"no page {request.url.path}"
        return error_response(request, error.status_code, message)

    @app.exception_handler(Exception)
    async def _bug(request: Request, error: Exception) -> Response:  # never a stack trace
        return error_response(request, 500, f"internal error ({type(error).__name__})")

    warm_routes(app)  # once everything is in place: the first request builds the middleware
    return app


__all__ = ["create_app", "warm_templates"]
