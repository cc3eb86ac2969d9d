"""The table companion's HTTP API and pages (Starlette): the same calls the CLI makes, over JSON.

Every request body is checked whole first (:mod:`.validate`: types, fields, strings, depth), then every
change goes through the CLI's own reader (:func:`sleuth.loading.load_data`) and, when an answer is asked with it,
that answer is computed, all before anything is saved: a refused request gets the one-line message naming the
field and what is allowed, and the saved table and its history are left byte-identical.  Files a puzzle names (a word
list) are read from the games folder only (:func:`sleuth.files.named_files_in`).
"""

from __future__ import annotations

import contextlib
import copy
import json
import re
import secrets
import sys
import traceback
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import PuzzleError, PuzzleErrors, SleuthError
from ..registry import find_game
from ..limits import LimitReached
from ..files import named_files_in, parse_text
from ..notes import NOTES
from ..results import ClaimSpec
from . import validate
from .jobs import Jobs
from .pages import PREFIX, games_json, page_file
from .store import MAX_TABLE_BYTES, Store, check, check_name

MAX_BODY = MAX_TABLE_BYTES + 64 * 1024  # a request body: a table's upload and some room
TIME_LIMIT = 30.0                      # seconds for an answer computed while the page waits
JOB_LIMIT = 600.0                      # seconds for a background computation
MAX_CLAIMS = validate.MAX_CLAIMS
TOKEN_COOKIE = "sleuth_token"
STATIC = __package__ or "sleuth.serve"
SHARED_PATH = re.compile(r"^/(g/[A-Za-z0-9][A-Za-z0-9_-]{0,63})?$")  # a page a shared URL may open

Handler = Callable[[Request], Awaitable[Response]]


class BadRequest(Exception):
    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status, self.message, self.extra = status, message, extra


def error_response(status: int, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": message, **extra}, status_code=status)


class Guard:
    """ASGI middleware: the token (non-loopback hosts), the Host header (loopback: no DNS rebinding) and the
    request body size limit, before any route runs."""

    def __init__(self, app: ASGIApp, *, token: str | None, hosts: set[str], max_body: int = MAX_BODY) -> None:
        self.app, self.token, self.hosts, self.max_body = app, token, hosts, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "").rsplit(":", 1)[0].strip("[]").lower()
        if self.hosts and host not in self.hosts:
            await error_response(403, f"host {host!r} is not served here")(scope, receive, send)
            return
        if self.token is not None and not self._has_token(scope, headers):
            await error_response(403, "this companion needs its token: open the URL `sleuth serve` printed")(
                scope, receive, send)
            return
        length = headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await error_response(413, f"the request body is larger than {self.max_body} bytes")(scope, receive, send)
            return
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise BadRequest(413, f"the request body is larger than {self.max_body} bytes")
            return message

        try:
            await self.app(scope, limited, send)
        except BadRequest as exc:
            await error_response(exc.status, exc.message)(scope, receive, send)

    def _has_token(self, scope: Scope, headers: Mapping[str, str]) -> bool:
        assert self.token is not None
        given = [headers.get("x-sleuth-token", "")]
        given += parse_qs(scope.get("query_string", b"").decode("latin-1")).get("token", [])
        for part in headers.get("cookie", "").split(";"):
            key, _, value = part.strip().partition("=")
            if key == TOKEN_COOKIE:
                given.append(value)
        return any(secrets.compare_digest(g.encode(), self.token.encode()) for g in given if g)


# -- reading requests -----------------------------------------------------------------------------------------

async def body(request: Request, route: str) -> dict[str, Any]:
    """The JSON body, checked whole against ``route``'s shape (:data:`validate.SHAPES`) before any use."""
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise BadRequest(415, "send JSON (Content-Type: application/json)")
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest(400, "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "the request body must be a JSON object")
    return validate.check(route, data)


def options_of(value: Any, place: str = "options") -> dict[str, Any]:
    """Command options as the CLI passes them (``--set key=value`` and flags): scalars under string keys."""
    if value is None:
        return {}
    validate.scalar_map(value, place)
    return {k: v for k, v in value.items() if v is not None}


def typed(game: str, options: dict[str, Any], place: str) -> dict[str, Any]:
    """``options`` with each flag of the game (``probabilities``) true or false, not any other value."""
    spec = find_game(game, place="game")
    for key, value in options.items():
        option = spec.option(key)
        if option is not None and option.kind == "flag" and not isinstance(value, bool):
            raise PuzzleError("expected true or false", place=f"{place}.{key}", allowed="true, false")
    return options


def review_options(game: str, options: dict[str, Any]) -> None:
    """A review is asked only of a game that declares one; its options are ``budget`` (nodes, 1 or more) and
    ``time-limit`` (CPU seconds of its searches in all, at most a background job's limit), as in ``sleuth review``."""
    from ..registry import all_games

    if not find_game(game, place="game").review:
        raise PuzzleError(f"game {game!r} has no review", place="command",
                          allowed=", ".join(g.name for g in all_games() if g.review) or "none")
    for key, value in options.items():
        number = isinstance(value, (int, float)) and not isinstance(value, bool)
        if key == "budget":
            if not (number and isinstance(value, int) and value >= 1):
                raise PuzzleError("expected a number of nodes", place="options.budget",
                                  allowed="an integer, 1 or more")
        elif key == "time-limit":
            if not (number and 0 < value <= JOB_LIMIT):
                raise PuzzleError("expected a time limit", place="options.time-limit",
                                  allowed=f"seconds, more than 0 and at most {JOB_LIMIT:g}")
        else:
            raise PuzzleError(f"unknown review option {key[:40]!r}", place="options", allowed="budget, time-limit")


def table_name(request: Request) -> str:
    return check_name(request.path_params["name"])


# -- answers ----------------------------------------------------------------------------------------------------

def report_json(report: Any) -> dict[str, Any]:
    return {**report.to_json(), "text": report.text}


def run_solve(puzzle: Any, options: dict[str, Any], place: str = "options") -> dict[str, Any]:
    """``solve`` as the CLI runs it (a limit reached is an answer: labelled, not an error)."""
    opts = {"time-limit": TIME_LIMIT, **typed(puzzle.game, options, place)}
    try:
        return report_json(puzzle.solve(options=opts))
    except LimitReached as exc:
        return {"game": puzzle.game, "status": "timeout", "error": f"stopped at a limit: {exc}"}


def state_json(store: Store, name: str, solve: dict[str, Any] | None = None, answer: Any = None
               ) -> dict[str, Any]:
    """The game as the page shows it (its table, TOML, undo and redo depths), with ``answer`` (already
    computed) or else solved when ``solve`` is given."""
    history = store.history(name)
    data = store.data(name)
    out: dict[str, Any] = {"name": name, "game": data.get("game"), "data": data, "undo": len(history["undo"]),
                           "redo": len(history["redo"]), "toml": store.text(name)}
    if answer is not None:
        out["solve"] = answer
    elif solve is not None:
        out["solve"] = run_solve(check(data, name), options_of(solve.get("options")))
    return out


class Answer:
    """The ``solve`` part of a request that changes the table, computed on the new table before it is saved
    (:meth:`Store.change`'s ``before_save``): bad options refuse the change whole."""

    def __init__(self, solve: dict[str, Any] | None) -> None:
        self.options = None if solve is None else options_of(solve.get("options"), "solve.options")
        self.value: dict[str, Any] | None = None

    def __call__(self, puzzle: Any) -> None:
        if self.options is not None:
            self.value = run_solve(puzzle, self.options, "solve.options")


EDITABLE_COMMON = ("title", "viewer", "claim", "notes")


def apply_ops(data: dict[str, Any], ops: Any) -> dict[str, Any]:
    """``data`` changed by ``ops``: append / replace / delete an item of an array key, set / unset a key.

    Only the game's own keys (and title, viewer, claim) can change; the result is checked by the caller.
    """
    if not isinstance(ops, list) or not ops:
        raise PuzzleError("expected a non-empty list of changes", place="ops")
    spec = find_game(str(data.get("game")), place="game")
    keys = {k.name for k in spec.keys} | set(EDITABLE_COMMON)
    new = copy.deepcopy(data)
    for i, op in enumerate(ops):
        place = f"ops[{i + 1}]"
        if not isinstance(op, dict):
            raise PuzzleError("expected an object", place=place)
        kind, key = op.get("op"), op.get("key")
        if kind not in ("append", "replace", "delete", "set", "unset"):
            raise PuzzleError(f"unknown change {kind!r}", place=f"{place}.op",
                              allowed="append, replace, delete, set, unset")
        if key not in keys:
            raise PuzzleError(f"key {key!r} cannot be changed in a {spec.name} game", place=f"{place}.key",
                              allowed=sorted(keys))
        if kind == "set":
            new[key] = op.get("value")
        elif kind == "unset":
            new.pop(key, None)
        else:
            items = new.setdefault(key, [])
            if not isinstance(items, list):
                raise PuzzleError(f"{key!r} is not a list", place=f"{place}.key")
            if kind == "append":
                items.append(op.get("value"))
                continue
            index = op.get("index")
            if not isinstance(index, int) or isinstance(index, bool) or not 0 <= index < len(items):
                raise PuzzleError(f"no item {index!r} in {key!r}", place=f"{place}.index",
                                  allowed=f"0 to {len(items) - 1}" if items else "none (the list is empty)")
            if kind == "delete":
                del items[index]
            else:
                items[index] = op.get("value")
    return new


def info_json() -> dict[str, Any]:
    """The installed games (each with its page, from its declaration) and the bundled examples (no server path:
    a page has no use for one, and a phone on the network need not learn it)."""
    from ..resources import examples

    return {"games": games_json(), "examples": [e.ref for e in examples()]}


# -- the application ----------------------------------------------------------------------------------------------

def create_app(store: Store | None = None, *, token: str | None = None, hosts: set[str] | None = None,
               start: str | None = None, share: list[str] | None = None, jobs: Jobs | None = None) -> ASGIApp:
    """The companion: pages, static assets and the JSON API over ``store`` (``start``: a game to open at /;
    ``share``: the URLs a phone on the network can open, shown with their QR codes by ``GET /api/share``)."""
    store = store or Store()
    jobs = jobs or Jobs()
    links = list(share or [])
    NOTES.disabled = True  # notes travel in each answer's "notes", not to the server's terminal

    def api(handler: Callable[[Request], Awaitable[Any]]) -> Handler:
        async def run(request: Request) -> Response:
            try:
                with named_files_in(store.folder):  # a word list a puzzle names: from the games folder only
                    result = await handler(request)
            except BadRequest as exc:
                return error_response(exc.status, exc.message, **exc.extra)
            except KeyError:
                return error_response(404, "no such table in the games folder")
            except PuzzleErrors as exc:  # several mistakes: the first in one line, all of them in "errors"
                first = exc.errors[0]
                more = f" (and {len(exc.errors) - 1} more)" if len(exc.errors) > 1 else ""
                return error_response(400, str(first) + more, place=first.place, allowed=first.allowed,
                                      errors=str(exc).splitlines())
            except PuzzleError as exc:
                return error_response(400, str(exc), place=exc.place, allowed=exc.allowed)
            except SleuthError as exc:
                return error_response(400, str(exc))
            except LimitReached as exc:
                return error_response(503, f"stopped at a limit: {exc}")
            except Exception as exc:  # a bug of sleuth: said as such (no server path), and the server keeps serving
                traceback.print_exc(file=sys.stderr)
                return error_response(500, f"internal error ({type(exc).__name__}); please report it")
            return result if isinstance(result, Response) else JSONResponse(result)
        return run

    def page(request: Request) -> Response:
        response = FileResponse(str(_static_dir() / "app.html"), media_type="text/html")
        response.headers["Cache-Control"] = "no-store"
        if token is not None and request.query_params.get("token") == token:
            response.set_cookie(TOKEN_COOKIE, token, httponly=True, samesite="strict")
        return response

    async def index(request: Request) -> Response:
        return page(request)

    async def info(request: Request) -> Any:
        return {**await run_in_threadpool(info_json), "start": start}

    async def list_tables(request: Request) -> Any:
        return {"games": [g.to_json() for g in await run_in_threadpool(store.tables)]}

    async def create(request: Request) -> Any:
        data_in = await body(request, "create")
        name = data_in.get("name")
        if name is not None:
            check_name(name)
        if "example" in data_in:
            from ..resources import find_example

            example = find_example(str(data_in["example"]))
            data = parse_text(example.text(), example.ref)
            name = name or example.name
        elif "text" in data_in:
            data = parse_text(data_in["text"], str(data_in.get("filename") or "upload.toml"))
        else:
            data = data_in["data"]
        chosen = await run_in_threadpool(store.create, data, name)
        return JSONResponse(await run_in_threadpool(state_json, store, chosen), status_code=201)

    async def show(request: Request) -> Any:
        name = table_name(request)
        return await run_in_threadpool(state_json, store, name)

    async def remove(request: Request) -> Any:
        name = table_name(request)

        def go() -> None:
            with store.lock(name):
                if not store.exists(name):
                    raise KeyError(name)
                store.delete(name)
        await run_in_threadpool(go)
        return {"deleted": name}

    async def download(request: Request) -> Response:
        name = table_name(request)
        text = await run_in_threadpool(store.text, name)
        return PlainTextResponse(text, media_type="application/toml",
                                 headers={"Content-Disposition": f'attachment; filename="{name}.toml"'})

    async def edit(request: Request) -> Any:
        name = table_name(request)
        data_in = await body(request, "edit")
        answer = Answer(data_in.get("solve"))

        def go() -> dict[str, Any]:
            with store.lock(name):
                new = apply_ops(store.data(name), data_in["ops"])
                store.change(name, new, before_save=answer)
                return state_json(store, name, answer=answer.value)
        return await run_in_threadpool(go)

    def stepper(direction: str) -> Handler:
        async def step(request: Request) -> Any:
            name = table_name(request)
            data_in = await body(request, "step")
            answer = Answer(data_in.get("solve"))

            def go() -> dict[str, Any]:
                with store.lock(name):
                    if not store.step(name, direction, before_save=answer if answer.options is not None else None):
                        raise BadRequest(409, f"nothing to {direction}")
                    return state_json(store, name, answer=answer.value)
            return await run_in_threadpool(go)
        return api(step)

    async def solve(request: Request) -> Any:
        name = table_name(request)
        data_in = await body(request, "solve")
        return await run_in_threadpool(state_json, store, name, {"options": data_in.get("options")})

    async def verify(request: Request) -> Any:
        name = table_name(request)
        data_in = await body(request, "verify")
        texts = data_in["claims"]

        def go() -> dict[str, Any]:
            puzzle = check(store.data(name), name)
            claims = [ClaimSpec(t, place=f"claim[{i + 1}]") for i, t in enumerate(texts)]
            try:
                results = puzzle.verify(claims, options={"time-limit": TIME_LIMIT})
            except LimitReached as exc:
                raise BadRequest(503, f"stopped at a limit: {exc}") from None
            return {"claims": [r.to_json() for r in results], "notes": list(puzzle.notes)}
        return await run_in_threadpool(go)

    async def suggest(request: Request) -> Any:
        name = table_name(request)
        data_in = await body(request, "suggest")
        opts = options_of(data_in.get("options"))

        def go() -> dict[str, Any]:
            puzzle = check(store.data(name), name)
            try:
                report = puzzle.suggest(method=data_in.get("method"),
                                        options={"time-limit": TIME_LIMIT, **typed(puzzle.game, opts, "options")})
            except LimitReached as exc:
                return {"game": puzzle.game, "status": "timeout", "error": f"stopped at a limit: {exc}"}
            return report_json(report)
        return await run_in_threadpool(go)

    async def start_job(request: Request) -> Any:
        name = table_name(request)
        data_in = await body(request, "job")
        command = data_in["command"]
        opts = options_of(data_in.get("options"))
        if data_in.get("method") is not None:
            opts["method"] = data_in["method"]
        text = await run_in_threadpool(store.text, name)
        game = check(parse_text(text, name), name).game
        if command == "review":
            review_options(game, opts)
        else:
            typed(game, opts, "options")  # others: found and reported by the job
        job = jobs.start(name, text, command, opts, JOB_LIMIT, folder=store.folder)
        if job is None:
            raise BadRequest(429, "too many background computations: cancel one or wait")
        return JSONResponse(job.to_json(), status_code=202)

    async def share_links(request: Request) -> Any:
        from .share import qr_svg

        path = request.query_params.get("path", "/")
        if not SHARED_PATH.match(path):
            raise PuzzleError("expected / or /g/NAME", place="path", allowed="a page of the companion")
        if not links:
            return {"urls": [], "note": "this companion serves this computer only (loopback): for a phone on "
                                        "the same network, start it with sleuth serve --host 0.0.0.0"}
        urls = [urlunsplit(urlsplit(u)._replace(path=path)) for u in links]
        return {"urls": [{"url": u, "svg": await run_in_threadpool(qr_svg, u)} for u in urls], "note": ""}

    async def list_files(request: Request) -> Any:
        return {"files": await run_in_threadpool(store.files)}

    async def upload_file(request: Request) -> Any:
        data_in = await body(request, "file")
        saved = await run_in_threadpool(store.save_file, data_in["name"], data_in["text"])
        return JSONResponse({"file": saved}, status_code=201)

    async def job_state(request: Request) -> Any:
        job = jobs.get(request.path_params["job"])
        if job is None:
            raise BadRequest(404, "no such computation")
        return job.to_json()

    async def job_cancel(request: Request) -> Any:
        job = jobs.cancel(request.path_params["job"])
        if job is None:
            raise BadRequest(404, "no such computation")
        return job.to_json()

    async def game_page(request: Request) -> Response:
        found = await run_in_threadpool(page_file, request.path_params["game"], request.path_params["file"])
        if found is None:
            return error_response(404, "no such file in the games' pages")
        content, media_type = found
        return Response(content, media_type=media_type, headers={"Cache-Control": "no-cache"})

    async def not_found(request: Request) -> Any:
        raise BadRequest(404, "no such page or API route")

    routes = [
        Route("/", index),
        Route("/g/{name}", index),
        Route("/api/info", api(info)),
        Route("/api/games", api(list_tables), methods=["GET"]),
        Route("/api/games", api(create), methods=["POST"]),
        Route("/api/games/{name}", api(show), methods=["GET"]),
        Route("/api/games/{name}", api(remove), methods=["DELETE"]),
        Route("/api/games/{name}/file", api(download), methods=["GET"]),
        Route("/api/games/{name}/edit", api(edit), methods=["POST"]),
        Route("/api/games/{name}/undo", stepper("undo"), methods=["POST"]),
        Route("/api/games/{name}/redo", stepper("redo"), methods=["POST"]),
        Route("/api/games/{name}/solve", api(solve), methods=["POST"]),
        Route("/api/games/{name}/verify", api(verify), methods=["POST"]),
        Route("/api/games/{name}/suggest", api(suggest), methods=["POST"]),
        Route("/api/games/{name}/jobs", api(start_job), methods=["POST"]),
        Route("/api/jobs/{job}", api(job_state), methods=["GET"]),
        Route("/api/jobs/{job}", api(job_cancel), methods=["DELETE"]),
        Route("/api/share", api(share_links), methods=["GET"]),
        Route("/api/files", api(list_files), methods=["GET"]),
        Route("/api/files", api(upload_file), methods=["POST"]),
        Mount("/static", StaticFiles(packages=[(STATIC, "static")])),
        Route(PREFIX + "/{game}/{file:path}", game_page, methods=["GET"]),
        Route("/api/{rest:path}", api(not_found), methods=["GET", "POST", "PUT", "DELETE"]),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        jobs.stop_all()

    async def http_error(request: Request, exc: Exception) -> Response:  # 405 and the like: JSON too
        status = getattr(exc, "status_code", 400)
        message = f"{request.method} is not allowed on this route" if status == 405 else str(
            getattr(exc, "detail", "bad request"))
        return error_response(status, message)

    app = Starlette(routes=routes, lifespan=lifespan, exception_handlers={HTTPException: http_error})
    app.state.jobs = jobs
    return Guard(app, token=token, hosts=hosts or set())


def _static_dir() -> Any:
    from importlib import resources
    from pathlib import Path

    return Path(str(resources.files(STATIC).joinpath("static")))
