"""What the web app's modules share: the templates, the store of a request, error replies."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

from fastapi import Request
from fastapi.responses import JSONResponse, Response
from fastapi.templating import Jinja2Templates

from arena.app.records import Store

HERE = Path(__file__).resolve().parent
TEMPLATES = Jinja2Templates(directory=str(HERE / "templates"))  # autoescaped (.html)
API = "/api/"
T = TypeVar("T")


def is_api(request: Request) -> bool:
    return request.url.path.startswith(API) or request.url.path == "/openapi.json"


def error_response(request: Request, status: int, message: str) -> Response:
    """One clear message: ``{"error": ...}`` for the API, a page for a person."""
    if is_api(request):
        return JSONResponse({"version": 1, "error": message}, status_code=status)
    return TEMPLATES.TemplateResponse(request, "error.html",
                                      {"status": status, "message": message},
                                      status_code=status)


def state_of(request: Request, name: str, kind: type[T]) -> T | None:
    """What the app keeps under ``name`` in its state, if it is a ``kind`` (None: it has none:
    ``arena web`` alone has no desk of ``arena serve``'s)."""
    found = getattr(request.app.state, name, None)
    return found if isinstance(found, kind) else None


def store_of(request: Request) -> Store:
    store: Any = request.app.state.store
    assert isinstance(store, Store)
    return store


__all__ = ["API", "HERE", "TEMPLATES", "error_response", "is_api", "state_of", "store_of"]
