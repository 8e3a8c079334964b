"""Authors on the web: sign in with a token, see your bots and their logs, submit a version,
read your bots' notes in replays, sign out.

- The session is Starlette's (``SessionMiddleware``: a cookie signed with the app's secret,
  ``HttpOnly``, ``SameSite=Lax``); it holds the token's hash and when the author signed in,
  never the token. Every request checks it again (:func:`arena.app.signin.signed_in`): after
  :data:`~arena.app.signin.SESSION_S`, or once the author has a new token, it is over.
- Every form that changes something (sign in, sign out, submit) carries a CSRF token, made and
  checked by ``fastapi-csrf-protect`` (a signed double-submit cookie): a form posted from
  another site is refused with 403.
- Wrong tokens are throttled per client address (:class:`arena.app.signin.Throttle`), as on
  the operator service.
- A submission goes to the server's own desk (:mod:`arena.app.submitting`, the operator
  service's): the same caps and refusals, its validation included. ``arena web`` alone has no
  desk: its form says that submissions go to ``arena serve``.

Everything public stays public without signing in.
"""

from __future__ import annotations

import secrets
from typing import Any, TypeVar

from fastapi import APIRouter, Request
from fastapi.responses import RedirectResponse, Response
from fastapi_csrf_protect import CsrfProtect
from fastapi_csrf_protect.exceptions import CsrfProtectError
from pydantic import BaseModel
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import UploadFile

from arena.app import bots, reports, scrimmages
from arena.app.records import AuthorInfo
from arena.app.scrimmages import ScrimmageDesk, ScrimmageRequest
from arena.app.signin import SESSION_S, SignInRefused, SignIns
from arena.app.submitting import MAX_ARCHIVE_BYTES, Refused, SubmissionDesk
from arena.errors import ArenaError, ErrorKind
from arena.games import all_games
from leaderboard.web.common import TEMPLATES, state_of, store_of

router = APIRouter(include_in_schema=False)
T = TypeVar("T")

CSRF_FIELD = "csrf_token"
FORM_SLACK = 64 * 1024
"""What a submit form may hold beyond its archive (the label, the CSRF token, the framing)."""
LOG_BYTES = 64 * 1024
"""The end of each of a bot's logs shown on its log page."""


class _CsrfSettings(BaseModel):
    secret_key: str = secrets.token_urlsafe(32)  # per process: a restart signs forms anew
    token_location: str = "body"
    token_key: str = CSRF_FIELD
    cookie_key: str = "arena_csrf"
    cookie_samesite: str = "strict"
    max_age: int = SESSION_S


@CsrfProtect.load_config  # type: ignore[arg-type]
def _csrf_settings() -> _CsrfSettings:
    return _CsrfSettings()


def _served(desk: T | None, what: str) -> T:
    """A desk of ``arena serve``'s, which ``arena web`` alone does not have."""
    if desk is None:
        raise ArenaError(f"this web app {what}: `arena serve` does", kind=ErrorKind.BAD_REQUEST)
    return desk


def desk_of(request: Request) -> SubmissionDesk | None:
    return state_of(request, "desk", SubmissionDesk)


def scrimmages_of(request: Request) -> ScrimmageDesk | None:
    return state_of(request, "scrimmages", ScrimmageDesk)


def sign_ins(request: Request) -> SignIns:
    found = state_of(request, "sign_ins", SignIns)
    assert found is not None, "create_app keeps the app's SignIns"
    return found


def author_of(request: Request) -> AuthorInfo | None:
    """The author signed in on this request's session (None: nobody, or the session is over,
    and then it is cleared)."""
    session = request.session
    if "token_hash" not in session:
        return None
    author = sign_ins(request).author(store_of(request), session)
    if author is None:
        session.clear()
    return author


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _form_page(request: Request, template: str, data: dict[str, Any],
               status: int = 200) -> Response:
    """A page with a form: a fresh CSRF token in it, and its signed cookie."""
    csrf = CsrfProtect()
    token, signed = csrf.generate_csrf_tokens()
    response = TEMPLATES.TemplateResponse(request, template, {**data, "csrf_token": token,
                                                              "signed_in": author_of(request)},
                                          status_code=status)
    csrf.set_csrf_cookie(signed, response)
    return response


class StaleForm(ArenaError):
    """A form whose CSRF token is missing, wrong or old: posted from elsewhere, or from a page
    opened before another of the arena's forms."""

    kind = ErrorKind.NOT_ALLOWED


async def _checked_form(request: Request) -> Any:
    """The posted form, once its CSRF token is right (else a 403 page)."""
    form = await request.form(max_files=1, max_fields=8)
    try:
        await CsrfProtect().validate_csrf(request)
    except CsrfProtectError as err:
        raise StaleForm(f"this form is stale or came from elsewhere ({err.message}): "
                        "open the page again") from None
    return form


async def _signed_in(request: Request) -> AuthorInfo | None:
    """:func:`author_of` from an async route: its store read in a worker thread, off the
    event loop that ``arena serve`` shares with its match clocks."""
    return await run_in_threadpool(author_of, request)


async def _my_page(request: Request, author: AuthorInfo, status: int = 200,
                   shown: dict[str, Any] | None = None, **more: Any) -> Response:
    """The author's page with ``shown`` (a submission's or a scrimmage's outcome), made in a
    worker thread."""
    return await run_in_threadpool(lambda: _form_page(
        request, "me.html", {**_mine(request, author), **(shown or {}), **more},
        status=status))


# ---------------------------------------------------------------- signing in and out


@router.get("/signin")
def signin_page(request: Request) -> Response:
    if author_of(request) is not None:
        return RedirectResponse("/me", status_code=303)
    return _form_page(request, "signin.html", {"error": None})


@router.post("/signin")
async def signin(request: Request) -> Response:
    form = await _checked_form(request)
    token = form.get("token")
    return await run_in_threadpool(_sign_in, request, token if isinstance(token, str) else "")


def _sign_in(request: Request, token: str) -> Response:
    try:
        session = sign_ins(request).sign_in(store_of(request), _client(request), token)
    except SignInRefused as refused:
        return _form_page(request, "signin.html", {"error": str(refused)},
                          status=refused.kind.http_status)
    request.session.clear()
    request.session.update(session)
    return RedirectResponse("/me", status_code=303)


@router.post("/signout")
async def signout(request: Request) -> Response:
    """End the session: this cookie and every copy of it (:class:`SignIns`)."""
    await _checked_form(request)
    sign_ins(request).sign_out(request.session)
    request.session.clear()
    return RedirectResponse("/", status_code=303)


# ---------------------------------------------------------------- an author's own pages


@router.get("/me")
def my_page(request: Request) -> Response:
    author = author_of(request)
    if author is None:
        return RedirectResponse("/signin", status_code=303)
    return _form_page(request, "me.html", _mine(request, author))


def _mine(request: Request, author: AuthorInfo) -> dict[str, Any]:
    """What an author's page shows: their bots, their scrimmages, the forms."""
    store = store_of(request)
    return {"author": author, "bots": bots.authors_bots(store, author.id),
            "taking": desk_of(request) is not None,
            "scrimmaging": scrimmages_of(request) is not None,
            "scrimmages": [reports.progress_of(t, {}) for t in scrimmages.scrimmages_of(
                store, author.id)[:20]],
            "games": sorted(all_games()), "max_bytes": MAX_ARCHIVE_BYTES, "result": None,
            "scrimmage": None}


@router.get("/me/bots/{label}/log")
def my_bot_log(request: Request, label: str) -> Response:
    """A version's logs, one per bot process (lane), the end of each: its author's only."""
    author = author_of(request)
    if author is None:
        return RedirectResponse("/signin", status_code=303)
    desk = desk_of(request)
    bot, files = bots.authors_log(store_of(request), desk.data_dir if desk else None, label,
                                  author.id, LOG_BYTES)
    return TEMPLATES.TemplateResponse(request, "bot_log.html", {
        "bot": bot, "files": files, "served": desk is not None, "signed_in": author})


async def _capped_body(request: Request, cap: int) -> None:
    """Read the request's body, refused as soon as it goes over ``cap`` bytes; kept for
    the form parser."""
    size, chunks = 0, []
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise ArenaError(f"the archive is over {MAX_ARCHIVE_BYTES:,} bytes; an archive "
                             f"may hold at most {MAX_ARCHIVE_BYTES:,}", kind=ErrorKind.BUSY)
        chunks.append(chunk)
    request._body = b"".join(chunks)  # what Request.stream() gives the form parser next


@router.post("/me/submit")
async def my_submit(request: Request) -> Response:
    """A new version through the form: the server's own submission desk."""
    author = await _signed_in(request)
    if author is None:
        return RedirectResponse("/signin", status_code=303)
    desk = _served(desk_of(request), "takes no submissions")

    async def receive() -> tuple[str | None, bytes]:
        await _capped_body(request, MAX_ARCHIVE_BYTES + FORM_SLACK)
        form = await _checked_form(request)
        archive, label = form.get("archive"), form.get("label")
        if not isinstance(archive, UploadFile) or not archive.filename:
            raise ArenaError("choose the archive of your bot's folder (.zip or .tar.gz)",
                             kind=ErrorKind.BAD_REQUEST)
        data = await archive.read()
        if not data:
            raise ArenaError("the archive is empty", kind=ErrorKind.BAD_REQUEST)
        if isinstance(label, str) and label.strip():
            return bots.check_label(label.strip()), data
        return None, data

    try:
        done = await desk.submit(author.id, receive)
    except StaleForm:
        raise
    except ArenaError as refused:
        return await _my_page(request, author, *_refusal(refused, "result"))
    return await _my_page(request, author, result={
        "ok": True, "bot": done.bot.label, "new": done.new, "files": done.files,
        "size": done.size, "build_s": done.build_s})


def _refusal(refused: ArenaError, key: str) -> tuple[int, dict[str, Any]]:
    """A form's refusal as the author's page shows it under ``key``, with its status: one
    line, and the end of the log of a build or validation that failed."""
    log = refused.log[-16_384:] if isinstance(refused, Refused) else ""
    status = 422 if isinstance(refused, Refused) else refused.kind.http_status
    return status, {key: {"ok": False, "error": str(refused), "log": log}}


def _labels(text: object) -> list[str]:
    """Bots named in a form field, separated by commas or spaces."""
    return [part for part in str(text or "").replace(",", " ").split() if part][:16]


@router.post("/me/scrimmage")
async def my_scrimmage(request: Request) -> Response:
    """A scrimmage through the form: the server's own scrimmage desk, its limits included."""
    author = await _signed_in(request)
    if author is None:
        return RedirectResponse("/signin", status_code=303)
    desk = _served(scrimmages_of(request), "queues no scrimmages")
    form = await _checked_form(request)
    try:
        sets = str(form.get("sets") or "").strip()
        if not sets.isdigit():
            raise ArenaError(f"sets must be a whole number, not {sets[:20]!r}",
                             kind=ErrorKind.BAD_REQUEST)
        asked = ScrimmageRequest(game=str(form.get("game") or "")[:64],
                                 mine=_labels(form.get("bot")),
                                 against=_labels(form.get("against")), sets=int(sets),
                                 sprt=str(form.get("sprt") or "").strip()[:200] or None)
        queued = await run_in_threadpool(desk.request, author.id, asked)
    except ArenaError as refused:
        return await _my_page(request, author, *_refusal(refused, "scrimmage"))
    return await _my_page(request, author,
                          scrimmage={"ok": True, "id": queued.id, "total": queued.total})


def session_secret() -> str:
    """A new secret for the session cookie's signature (per process: a restart signs
    everyone out)."""
    return secrets.token_urlsafe(32)


__all__ = ["StaleForm", "author_of", "router", "session_secret"]
