"""The table companion's HTTP API and pages (Starlette): the same calls the CLI makes, over JSON.

Every route reads its input through the CLI's own reader (:func:`sleuth.loading.load_data`), so a bad form
gets the CLI's one-line message (naming the field and what is allowed) and the game is left unchanged.
"""

from __future__ import annotations

import contextlib
import copy
import json
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any
from urllib.parse import parse_qs

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import PuzzleError, SleuthError
from ..registry import all_games, find_game
from ..limits import LimitReached
from ..files import parse_text
from ..notes import NOTES
from ..results import ClaimSpec
from .jobs import Jobs
from .store import MAX_GAME_BYTES, Store, check, check_name

MAX_BODY = MAX_GAME_BYTES + 64 * 1024  # a request body: a game upload and some room
TIME_LIMIT = 30.0                      # seconds for an answer computed while the page waits
JOB_LIMIT = 600.0                      # seconds for a background computation
MAX_CLAIMS = 50
TOKEN_COOKIE = "sleuth_token"
STATIC = __package__ or "sleuth.serve"

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

async def body(request: Request) -> dict[str, Any]:
    if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
        raise BadRequest(415, "send JSON (Content-Type: application/json)")
    raw = await request.body()
    try:
        data = json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise BadRequest(400, "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise BadRequest(400, "the request body must be a JSON object")
    return data


def options_of(value: Any, place: str = "options") -> dict[str, Any]:
    """Command options as the CLI passes them (``--set key=value`` and flags): scalars under string keys."""
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(k, str) for k in value):
        raise PuzzleError("expected an object of options", place=place, allowed="{option: value}")
    for k, v in value.items():
        if not isinstance(v, (str, int, float, bool)) and v is not None:
            raise PuzzleError("expected a string, number or true/false", place=f"{place}.{k}")
    return {k: v for k, v in value.items() if v is not None}


def game_name(request: Request) -> str:
    return check_name(request.path_params["name"])


# -- answers ----------------------------------------------------------------------------------------------------

def report_json(report: Any) -> dict[str, Any]:
    return {**report.to_json(), "text": report.text}


def run_solve(puzzle: Any, options: dict[str, Any]) -> dict[str, Any]:
    """``solve`` as the CLI runs it (a limit reached is an answer: labelled, not an error)."""
    opts = {"time-limit": TIME_LIMIT, **options}
    try:
        return report_json(puzzle.solve(options=opts))
    except LimitReached as exc:
        return {"game": puzzle.game, "status": "timeout", "error": f"stopped at a limit: {exc}"}


def state_json(store: Store, name: str, solve: dict[str, Any] | None = None, puzzle: Any = None
               ) -> dict[str, Any]:
    """The game as the page shows it (its table, TOML, undo and redo depths), solved when ``solve`` is given."""
    history = store.history(name)
    data = store.data(name)
    out: dict[str, Any] = {"name": name, "game": data.get("game"), "data": data, "undo": len(history["undo"]),
                           "redo": len(history["redo"]), "toml": store.text(name)}
    if solve is not None:
        puzzle = puzzle or check(data, name)
        out["solve"] = run_solve(puzzle, options_of(solve.get("options"), "solve.options"))
    return out


EDITABLE_COMMON = ("title", "viewer", "claim")


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


def info_json(store: Store) -> dict[str, Any]:
    from ..models.clue.state import NAMED_DECKS, CATEGORIES
    from ..resources import examples

    games = []
    for g in all_games():
        games.append({"name": g.name, "summary": g.summary, "claims": list(g.claims),
                      "suggest_methods": {d.name: d.meaning for d in g.suggest_methods},
                      "options": [{"key": o.name, "kind": o.kind, "default": o.default, "meaning": o.meaning,
                                   "commands": list(o.commands)} for o in g.all_options()]})
    decks = {name: {cat + "s": list(cards) for cat, cards in zip(CATEGORIES, cats, strict=True)}
             for name, cats in NAMED_DECKS.items()}
    return {"games": games, "clue_decks": decks, "examples": [e.ref for e in examples()],
            "folder": str(store.folder)}


# -- the application ----------------------------------------------------------------------------------------------

def create_app(store: Store | None = None, *, token: str | None = None, hosts: set[str] | None = None,
               start: str | None = None) -> ASGIApp:
    """The companion: pages, static assets and the JSON API over ``store`` (``start``: a game to open at /)."""
    store = store or Store()
    jobs = Jobs()
    NOTES.disabled = True  # notes travel in each answer's "notes", not to the server's terminal

    def api(handler: Callable[[Request], Awaitable[Any]]) -> Handler:
        async def run(request: Request) -> Response:
            try:
                result = await handler(request)
            except BadRequest as exc:
                return error_response(exc.status, exc.message, **exc.extra)
            except KeyError:
                return error_response(404, "no such game in the games folder")
            except PuzzleError as exc:
                return error_response(400, str(exc), place=exc.place, allowed=exc.allowed)
            except SleuthError as exc:
                return error_response(400, str(exc))
            except LimitReached as exc:
                return error_response(503, f"stopped at a limit: {exc}")
            except Exception as exc:  # a bug of sleuth: said as such, and the server keeps serving
                return error_response(500, f"internal error: {type(exc).__name__}: {exc}")
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
        return {**await run_in_threadpool(info_json, store), "start": start}

    async def list_games(request: Request) -> Any:
        return {"games": [g.to_json() for g in await run_in_threadpool(store.games)]}

    async def create(request: Request) -> Any:
        data_in = await body(request)
        name = data_in.get("name")
        if name is not None:
            check_name(name)
        if "example" in data_in:
            from ..resources import find_example

            example = find_example(str(data_in["example"]))
            data = parse_text(example.text(), example.ref)
            name = name or example.name
        elif "text" in data_in:
            if not isinstance(data_in["text"], str):
                raise PuzzleError("expected the file's text", place="text")
            data = parse_text(data_in["text"], str(data_in.get("filename") or "upload.toml"))
        else:
            table = data_in.get("data")
            if not isinstance(table, dict):
                raise PuzzleError("expected a puzzle table", place="data", allowed="{game: ..., ...}")
            data = table
        chosen = await run_in_threadpool(store.create, data, name)
        return JSONResponse(await run_in_threadpool(state_json, store, chosen), status_code=201)

    async def show(request: Request) -> Any:
        name = game_name(request)
        return await run_in_threadpool(state_json, store, name)

    async def remove(request: Request) -> Any:
        name = game_name(request)

        def go() -> None:
            with store.lock(name):
                if not store.exists(name):
                    raise KeyError(name)
                store.delete(name)
        await run_in_threadpool(go)
        return {"deleted": name}

    async def download(request: Request) -> Response:
        name = game_name(request)
        text = await run_in_threadpool(store.text, name)
        return PlainTextResponse(text, media_type="application/toml",
                                 headers={"Content-Disposition": f'attachment; filename="{name}.toml"'})

    async def edit(request: Request) -> Any:
        name = game_name(request)
        data_in = await body(request)

        def go() -> dict[str, Any]:
            with store.lock(name):
                new = apply_ops(store.data(name), data_in.get("ops"))
                puzzle = store.change(name, new)
                return state_json(store, name, data_in.get("solve"), puzzle)
        return await run_in_threadpool(go)

    def stepper(direction: str) -> Handler:
        async def step(request: Request) -> Any:
            name = game_name(request)
            data_in = await body(request)

            def go() -> dict[str, Any]:
                with store.lock(name):
                    if not store.step(name, direction):
                        raise BadRequest(409, f"nothing to {direction}")
                    return state_json(store, name, data_in.get("solve"))
            return await run_in_threadpool(go)
        return api(step)

    async def solve(request: Request) -> Any:
        name = game_name(request)
        data_in = await body(request)
        return await run_in_threadpool(state_json, store, name, {"options": data_in.get("options")})

    async def verify(request: Request) -> Any:
        name = game_name(request)
        data_in = await body(request)
        texts = data_in.get("claims")
        if not isinstance(texts, list) or not texts or len(texts) > MAX_CLAIMS \
                or not all(isinstance(t, str) and t.strip() for t in texts):
            raise PuzzleError("expected a list of claim texts", place="claims", allowed=f"1 to {MAX_CLAIMS} claims")

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
        name = game_name(request)
        data_in = await body(request)
        opts = options_of(data_in.get("options"))

        def go() -> dict[str, Any]:
            puzzle = check(store.data(name), name)
            try:
                report = puzzle.suggest(method=data_in.get("method"), options={"time-limit": TIME_LIMIT, **opts})
            except LimitReached as exc:
                return {"game": puzzle.game, "status": "timeout", "error": f"stopped at a limit: {exc}"}
            return report_json(report)
        return await run_in_threadpool(go)

    async def start_job(request: Request) -> Any:
        name = game_name(request)
        data_in = await body(request)
        command = data_in.get("command")
        if command not in ("solve", "suggest"):
            raise PuzzleError(f"unknown command {command!r}", place="command", allowed="solve, suggest")
        opts = options_of(data_in.get("options"))
        if data_in.get("method") is not None:
            opts["method"] = data_in["method"]
        text = await run_in_threadpool(store.text, name)
        check(parse_text(text, name), name)  # bad options are found by the child and reported by the job
        job = jobs.start(name, text, command, opts, JOB_LIMIT)
        if job is None:
            raise BadRequest(429, "too many background computations: cancel one or wait")
        return JSONResponse(job.to_json(), status_code=202)

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

    async def not_found(request: Request) -> Any:
        raise BadRequest(404, "no such page or API route")

    routes = [
        Route("/", index),
        Route("/g/{name}", index),
        Route("/api/info", api(info)),
        Route("/api/games", api(list_games), methods=["GET"]),
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
        Mount("/static", StaticFiles(packages=[(STATIC, "static")])),
        Route("/api/{rest:path}", api(not_found), methods=["GET", "POST", "PUT", "DELETE"]),
    ]
    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        jobs.stop_all()

    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.jobs = jobs
    return Guard(app, token=token, hosts=hosts or set())


def _static_dir() -> Any:
    from importlib import resources
    from pathlib import Path

    return Path(str(resources.files(STATIC).joinpath("static")))
