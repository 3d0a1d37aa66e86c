"""The composition root: storage, the table service and every configured platform on one
event loop (STYLE.md 9)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
import sqlite3
import sys
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar
from urllib.parse import parse_qs, unquote, urlsplit

from telegram.error import BadRequest, InvalidToken, NetworkError

from bot.config import (
    MAX_SHARDS_PER_PROCESS,
    ConfigError,
    OutOfReach,
    Settings,
    pg_servers,
    split_listen,
)
from bot.dblock import (
    LOCK_LOST,
    PostgresBusy,
    PostgresLock,
    held_alone,
    hold_database,
    hold_worker,
    let_go,
)
from storage.api import StorageError, StorageUnreachable, Store
from storage.check import sqlite_advice, sqlite_locked
from storage.sqlite import SqliteStore

if TYPE_CHECKING:
    from bot.cluster import Worker
    from bot.service import TableService
    from bot.telegram import TelegramAdapter

__all__ = [
    "DatabaseLost",
    "DatabaseTaken",
    "DiscordEnded",
    "TokenTaken",
    "database_name",
    "error_name",
    "open_store",
    "run",
    "run_router",
    "settle_heap",
]

log = logging.getLogger(__name__)
T = TypeVar("T")


def __getattr__(name: str) -> Any:
    """``bot.app.TableService``, imported at its first use: the router (:func:`run_router`)
    imports this module and never makes a table service, whose import (``game.strategy``,
    the renderer, Pillow) was most of its start and memory (fix40f). Once read it is a name
    of this module (tests put their own in its place: :func:`run` makes what it holds)."""
    if name == "TableService":
        from bot.service import TableService

        globals()[name] = TableService
        return TableService
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _table_service() -> Callable[..., TableService]:
    """What :func:`run` makes its service with: this module's ``TableService``
    (:func:`__getattr__`)."""
    made: Callable[..., TableService] = globals().get("TableService") or __getattr__("TableService")
    return made


class _Adapter(Protocol):
    async def stop(self) -> None: ...


class DatabaseTaken(Exception):
    """The bot stopped because another process took its PostgreSQL lock while the lock's
    connection was lost (:class:`bot.dblock.PostgresLock`); the message is the line already
    logged then. ``python -m bot`` exits with status 2 without saying it again."""


class DatabaseLost(Exception):
    """The bot stopped because its PostgreSQL lock's connection was lost and the lock could
    not be taken again within :data:`bot.dblock.PG_LOST_SECONDS` (the server out of reach):
    served on without it, another bot could take it and serve the same tables. The message is
    the line already logged then. ``python -m bot`` exits with status 75 (``EX_TEMPFAIL``, as
    for a database out of reach at the start: a restart later may well succeed) without
    saying it again."""


class TokenTaken(Exception):
    """The bot stopped because another process takes its Telegram token's updates (polls with
    it, or set a webhook: :mod:`bot.telegram.one_bot`); the message is the line already
    logged then. ``python -m bot`` exits with status 2 without saying it again."""


class DiscordEnded(Exception):
    """The bot stopped because Discord ended its gateway connection for good while it ran
    (the token reset in the Developer Portal: close code 4004; the members intent switched
    off there: 4014) and Discord was the only platform it served; the message is the line
    already logged then. ``python -m bot`` exits with status 2 without saying it again (the
    token or the portal must change: restarting alone cannot help)."""


class _TokenTaken:
    """The bot's or the router's callback for another process taking its Telegram token's
    updates (:mod:`bot.telegram.one_bot`, which logged the line): the first line is kept and
    ``stop`` set, unless a SIGTERM/SIGINT set it first (a plain stop, exit status 0).
    ``error``: what :meth:`raise_if_taken` raises (:class:`TokenTaken`; the Discord-only
    bot's ended connection: :class:`DiscordEnded`)."""

    def __init__(self, stop: asyncio.Event, error: type[Exception] = TokenTaken) -> None:
        self._stop = stop
        self._error = error
        self._line: str | None = None

    def __call__(self, line: str) -> None:
        if self._stop.is_set():  # (SIGTERM/SIGINT came first: a plain stop, status 0; brk54)
            return
        self._line = self._line or line
        self._stop.set()

    def raise_if_taken(self) -> None:
        """:raises TokenTaken: (or the ``error`` given) with the first line, once the token
        was taken."""
        if self._line is not None:
            raise self._error(self._line)


class _DiscordEnded(_TokenTaken):
    """The Discord-only bot's callback for its gateway connection ended for good
    (:attr:`bot.discord.DiscordAdapter.on_ended`, which logged the line): one more line says
    the bot stops, ``stop`` is set, :meth:`raise_if_taken` raises :class:`DiscordEnded`; a
    SIGTERM/SIGINT first: a plain stop (status 0). Ran as a SIGTERM would, the tables are
    saved."""

    def __init__(self, stop: asyncio.Event) -> None:
        super().__init__(stop, DiscordEnded)

    def __call__(self, line: str) -> None:
        if not self._stop.is_set():
            log.error("the bot stops: Discord was the only platform it served")
        super().__call__(line)


class _StoppedStarting(Exception):
    """SIGINT/SIGTERM (``stop``) came while the start waited on a platform or PostgreSQL."""


async def _unless_stopped(start: Awaitable[T], stop: asyncio.Event) -> T:
    """``await start``, unless ``stop`` is set first: then ``start`` is cancelled and
    :class:`_StoppedStarting` raised. Ctrl-C or SIGTERM while the Bot API, Discord or a
    PostgreSQL server did not answer was held until their timeouts (11 s for the Bot API,
    a minute for PostgreSQL), and the process then stopped with "cannot reach the Telegram
    Bot API" (exit status 2) as if nobody had asked it to stop."""
    if stop.is_set():
        if asyncio.iscoroutine(start):
            start.close()  # (never awaited: no warning)
        raise _StoppedStarting
    task = asyncio.ensure_future(start)
    stopped = asyncio.ensure_future(stop.wait())
    try:
        await asyncio.wait((task, stopped), return_when=asyncio.FIRST_COMPLETED)
    except asyncio.CancelledError:  # (the caller cancelled: the start with it, not left on)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        raise
    finally:
        stopped.cancel()
    if not task.done():
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        raise _StoppedStarting
    return task.result()


async def _take_updates(telegram: TelegramAdapter, settings: Settings) -> None:
    """Polling (the default) or, with ``TELEGRAM_WEBHOOK_URL``, the webhook (issue 14);
    "Telegram: polling as @bot" (or webhook) logged once it runs (``setWebhook`` succeeded)."""
    if settings.telegram_webhook_url is None or settings.telegram_webhook_secret is None:
        await telegram.start_polling()
        log.info("Telegram: polling as @%s", telegram.presenter.username)
        return
    host, port = split_listen(settings.telegram_webhook_listen)
    secret = settings.telegram_webhook_secret.get_secret_value()
    try:
        with _webhook_refused(settings.telegram_webhook_url):
            await telegram.start_webhook(settings.telegram_webhook_url, secret, host, port)
    except OSError as exc:
        raise ConfigError(
            f"cannot listen on TELEGRAM_WEBHOOK_LISTEN={settings.telegram_webhook_listen}: "
            f"{exc.strerror or exc}"
        ) from None
    log.info("Telegram: webhook as @%s", telegram.presenter.username)


@contextlib.contextmanager
def _filtered(logger: str, drop: logging.Filter) -> Iterator[None]:
    """The filter ``drop`` on the logger named ``logger`` while the block runs (removed
    after it, whatever it raised)."""
    target = logging.getLogger(logger)
    target.addFilter(drop)
    try:
        yield
    finally:
        target.removeFilter(drop)


class _NoRefusedWebhookTrace(logging.Filter):
    """Drops python-telegram-bot's traceback of a refused ``setWebhook`` (its bootstrap's
    "Failed run number 0 of 0. Aborting."): :func:`_webhook_refused` says it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (record.exc_info and isinstance(record.exc_info[1], BadRequest))


@contextlib.contextmanager
def _webhook_refused(url: str) -> Iterator[None]:
    """Telegram refusing ``setWebhook`` (400 "bad webhook: An HTTPS URL must be provided",
    a port it does not post to, a host it cannot resolve) as the one line of a
    :class:`ConfigError` naming ``TELEGRAM_WEBHOOK_URL``: a single process stopped with a
    traceback (exit status 1), the router said "cannot reach the Telegram Bot API" (a
    ``BadRequest`` is a ``NetworkError``). Telegram posts only to https on ports 443, 80, 88
    and 8443 (core.telegram.org/bots/api#setwebhook)."""
    with _filtered("telegram.ext", _NoRefusedWebhookTrace()):  # (its network loop's logger)
        try:
            yield
        except BadRequest as exc:
            raise ConfigError(
                f"Telegram refused TELEGRAM_WEBHOOK_URL={url} ({exc.message}): set a public "
                "https:// URL on port 443, 80, 88 or 8443"
            ) from None


class _NoJsonTrace(logging.Filter):
    """Drops python-telegram-bot's traceback of an answer that is no JSON ("Can not load
    invalid JSON data"): :func:`_bot_api_errors` says it in one line."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not str(record.msg).startswith("Can not load invalid JSON data")


@contextlib.contextmanager
def _bot_api_errors(base_url: str | None = None) -> Iterator[None]:
    """The Bot API refusing the token or out of reach, as the one line of a
    :class:`ConfigError` (no traceback, no token): the bot's start and the router's. Out of
    reach (``NetworkError``: no answer, a timeout, a 5xx) is :class:`OutOfReach`, exit
    status 75: a network outage at boot is restarted; its line names
    ``TELEGRAM_API_BASE_URL`` only when it is set (else Telegram's own server).

    ``base_url`` (``TELEGRAM_API_BASE_URL``) answering a 404 or 401 that is no JSON is no
    Bot API server (a wrong path, another service's port): python-telegram-bot takes every
    404 for a refused token, and the line sent the operator to a token that was fine."""
    # (the filter on its JSON parsing's logger)
    with _filtered("telegram.request.BaseRequest", _NoJsonTrace()):
        try:
            yield
        except InvalidToken as exc:
            # (Bot.initialize raises its own "The token … was rejected" from the request's)
            answer = exc.__cause__ if isinstance(exc.__cause__, InvalidToken) else exc
            if base_url is not None and answer.__cause__ is not None:  # (the answer: no JSON)
                raise ConfigError(
                    f"TELEGRAM_API_BASE_URL={base_url} answered {answer.message.split('.')[0]}, "
                    "not as a Bot API server: set its URL (e.g. http://127.0.0.1:8081/bot), or "
                    "leave it empty for Telegram's"
                ) from None
            raise ConfigError(
                "Telegram refused TELEGRAM_BOT_TOKEN: set a valid token from @BotFather in .env"
            ) from None
        except BadRequest as exc:  # (a NetworkError: the Bot API answered, and refused)
            raise ConfigError(
                f"the Telegram Bot API refused the start ({exc.message}): check "
                "TELEGRAM_API_BASE_URL in .env"
            ) from None
        except NetworkError as exc:  # (no answer, or a 5xx: status 75, restarted)
            # (without a base URL the line sent a newcomer to TELEGRAM_API_BASE_URL, a
            # variable they had never set: the bot calls Telegram's own server then)
            where = (
                "network (the bot calls https://api.telegram.org)"
                if base_url is None
                else "network, or TELEGRAM_API_BASE_URL in .env"
            )
            raise OutOfReach(
                f"cannot reach the Telegram Bot API ({_bot_api_failure(exc)}): check the {where}"
            ) from None


def _bot_api_failure(exc: NetworkError) -> str:
    """The Bot API out of reach (``exc``) as its :class:`OutOfReach` line names it, in the
    form Discord's names its own (:func:`error_name`): python-telegram-bot's ``NetworkError``
    (or ``TimedOut``) is named by the exception it wraps (``aiohttp.ClientConnectorError``
    from :mod:`bot.telegram.transport`, ``TimeoutError``; ``httpx.ConnectError`` from the
    library's own transport), else by its text's ``aiohttp.…`` or ``httpx.…`` prefix, else as
    itself (``telegram.error.NetworkError``: a 5xx answer, its JSON not parsed)."""
    cause = exc.__cause__
    if cause is not None and not isinstance(cause, ValueError):  # (ValueError: the JSON)
        return error_name(cause)
    if exc.message.startswith(("aiohttp.", "httpx.")):
        return exc.message.split(":")[0]
    return error_name(exc)


def error_name(exc: BaseException) -> str:
    """How the start's "cannot reach …" lines (:class:`OutOfReach`, Telegram's and
    Discord's alike) name the exception that kept a platform out of reach: its class as its
    library exports it (``httpx.ConnectError``, ``aiohttp.ClientConnectorError``,
    ``discord.DiscordServerError``; else its public module's: ``telegram.error.TimedOut``), a
    builtin bare (``TimeoutError``, ``OSError``). Telegram's line said ``httpx.ConnectError``
    and Discord's ``ClientConnectorError`` (the bare class), or Telegram's "Timed out" (the
    library's text)."""
    cls = type(exc)
    if cls.__module__ == "builtins":
        return cls.__qualname__
    top = cls.__module__.split(".")[0]
    if getattr(sys.modules.get(top), cls.__name__, None) is cls:
        return f"{top}.{cls.__name__}"
    public = ".".join(part for part in cls.__module__.split(".") if not part.startswith("_"))
    return f"{public}.{cls.__name__}"


def settle_heap() -> None:
    """Once the bot has started: collect, then move every object alive (the imported
    libraries, their caches, the restored tables) out of the cyclic garbage collector's reach
    (:func:`gc.freeze`), so a full collection scans only what came later. Without it each
    full collection walked the whole heap for about 80 ms with the event loop stopped:
    ``bench/bench_discord.py --trace`` showed 18 of them (80-92 ms) in a run, and the presses
    they held up were its p99. Objects frozen are never freed, so only start-up's are."""
    gc.collect()
    gc.freeze()


def database_name(settings: Settings) -> str:
    """The database the bot runs on, for its start line: the SQLite file as an absolute path
    (``DATABASE_PATH`` is relative to the folder the bot starts in: a service started
    elsewhere makes a new, empty ``ofc.sqlite3`` there, and the log did not say which), or
    ``DATABASE_URL``'s database and server, ``ofc on db:5432 (PostgreSQL)`` (servers, a URL
    naming several: ``ofc on db1:5432,db2:5432``; no user, no password: the whole URL is
    one of the secrets the log hides)."""
    if settings.database_url is None:
        return f"{Path(settings.database_path).resolve()} (SQLite)"
    url = settings.database_url.get_secret_value()
    servers = ",".join(pg_servers(url))  # (each port checked: config; several: libpq's list)
    return f"{urlsplit(url).path.lstrip('/') or '(the default)'} on {servers} (PostgreSQL)"


async def open_store(settings: Settings) -> Store:
    """The store the settings choose: PostgreSQL (:class:`storage.postgres.PostgresStore`)
    when ``DATABASE_URL`` is set, else the SQLite file ``DATABASE_PATH`` (the default).
    Pending migrations are applied.

    :raises ConfigError: when PostgreSQL refuses (one line, the password left out;
        :class:`OutOfReach` when it cannot be reached), or the SQLite file cannot be opened
        (a folder that does not exist, a folder, a file that is not a database: one line
        naming the file; :class:`OutOfReach`, exit status 75, when another program holds it
        locked: a lock is let go, :func:`storage.check.sqlite_locked`)."""
    if settings.database_url is None:
        try:
            return await SqliteStore.open(settings.database_path)
        except StorageError as exc:
            # (a file another program holds locked is let go: exit status 75, restarted, as a
            # server out of reach; it was 2, which a service manager leaves stopped)
            kind = OutOfReach if sqlite_locked(exc) else ConfigError
            raise kind(
                f"cannot open the SQLite database {settings.database_path} "
                f"({str(exc).removeprefix('SQLite error: ')}): "
                f"{_advice(exc, _path_advice(settings.database_path))}"
            ) from None
    from storage.postgres import PostgresStore

    try:
        return await PostgresStore.open(settings.database_url.get_secret_value())
    except StorageError as exc:
        raise _postgres_refused(settings, exc) from None


def _postgres_refused(settings: Settings, exc: StorageError) -> ConfigError:
    """A PostgreSQL server out of reach or refusing, as one line without the URL: out of
    reach (:class:`storage.api.StorageUnreachable`) an :class:`OutOfReach` (exit status 75,
    restarted), refusing a plain :class:`ConfigError` (2)."""
    assert settings.database_url is not None
    url = settings.database_url.get_secret_value()
    reason = str(exc).replace(url, "DATABASE_URL")
    kind = OutOfReach if isinstance(exc, StorageUnreachable) else ConfigError
    advice = _advice(exc, "check DATABASE_URL in .env")
    if _no_create_privilege(exc):
        advice = _create_advice(url)
    return kind(f"{reason.splitlines()[0]}: {advice}")


def _no_create_privilege(exc: StorageError) -> bool:
    """Whether PostgreSQL refused the start's migrations for want of a privilege (nu59: a
    database made by another role than ``DATABASE_URL``'s, on PostgreSQL 15 or later, gives
    it no CREATE in schema ``public``; the line said "permission denied for schema public:
    check DATABASE_URL in .env", and the URL was right)."""
    import asyncpg

    return isinstance(exc.__cause__, asyncpg.exceptions.InsufficientPrivilegeError)


def _create_advice(url: str) -> str:
    """What to do when ``url``'s role may not create the bot's tables: make it the owner of
    its database, or grant it CREATE on the schema, named from ``url`` when it says them
    (never its password)."""
    from storage.postgres import netloc_cut

    parts = urlsplit(url)
    if netloc_cut(parts):  # (a password's unescaped / ? or #: its rest read as the path)
        role, database, schema = "<role>", "<database>", "public"
    else:
        role = unquote(parts.username or "") or "<role>"
        database = unquote(parts.path.lstrip("/")) or "<database>"
        schema = parse_qs(parts.query).get("search_path", ["public"])[0]
        schema = schema.partition(",")[0].strip()
    return (
        f"the role {role} may not create the bot's tables there: make it the database's owner "
        f"(ALTER DATABASE {database} OWNER TO {role}; since PostgreSQL 15 only the owner "
        f"creates in schema public unless granted), or GRANT CREATE ON SCHEMA "
        f"{schema or 'public'} TO {role}"
    )


def _path_advice(path: str) -> str:
    """What to fix about a ``DATABASE_PATH`` SQLite could not open ("unable to open database
    file" says neither): its folder missing (a typo, or a folder never made: the bot makes
    the file, not its folders), the path a folder, else the setting in general.

    :param path: ``DATABASE_PATH`` as configured (``~`` already expanded).
    :returns: one clause for the start's ``error:`` line; ``.env`` in it names the settings
        file read (:func:`bot.logs.in_env_file`)."""
    file = Path(path)
    if file.is_dir():
        return f"it is a folder: set DATABASE_PATH to a file in it ({file / 'ofc.sqlite3'}) in .env"
    folder = file.parent
    if not folder.is_dir():
        return (
            f"its folder {folder} does not exist (the bot makes the file, not its folder): "
            "create it, or correct DATABASE_PATH in .env"
        )
    return "check DATABASE_PATH in .env"


def _advice(exc: StorageError, otherwise: str) -> str:
    """What to do about a database the start could not open: for one newer than the code
    (code rolled back after an upgrade) not the setting, which is right, but the code; for an
    SQLite file locked by another program, on a full disk, read-only or damaged, the file."""
    if "newer than this code" in str(exc):
        return "run the code that upgraded it, or restore the backup taken before the upgrade"
    # (brk79: SQLite's file locked, its disk full, the file read-only: the path was right)
    return sqlite_advice(exc, start=True) or otherwise


async def run(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run the bot until ``stop`` is set (or SIGINT/SIGTERM). Set while the start waits on
    PostgreSQL, the Bot API or Discord, it stops the start there (nothing raised); set
    later in the start, the bot stops once it has started.

    :raises ConfigError: when a platform refuses the token, or another process holds the
        database (one line); :class:`OutOfReach` when a platform or PostgreSQL cannot be
        reached.
    :raises DatabaseTaken: once stopped because another process took the PostgreSQL
        database's lock while its connection was lost (the line logged then).
    :raises DatabaseLost: once stopped because that lock could not be taken again within
        :data:`bot.dblock.PG_LOST_SECONDS` (the line logged then).
    :raises TokenTaken: once stopped because another process takes the Telegram token's
        updates (the line logged then).
    :raises DiscordEnded: once stopped because Discord, the only platform served, ended the
        gateway connection for good (the line logged then; with Telegram too, the bot runs
        on for Telegram).
    """
    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    try:
        await _serve(settings, stop)
    except _StoppedStarting:
        log.info("stopped while starting")


async def _serve(settings: Settings, stop: asyncio.Event) -> None:
    """:func:`run`'s start, run and stop, on PostgreSQL while the bot holds its lock
    (:func:`_hold_postgres`; watched: should another process take it after its connection
    was lost, one line is logged and the bot stops; after a SIGTERM/SIGINT, a plain stop).

    :raises _StoppedStarting: as its name says.
    :raises DatabaseTaken: once stopped after its PostgreSQL lock was taken (not when the
        stop came first).
    :raises DatabaseLost: once stopped after its PostgreSQL lock could not be taken again in
        time (:data:`bot.dblock.PG_LOST_SECONDS`; not when the stop came first)."""
    if settings.database_url is None:
        await _serve_on(settings, stop)
        return
    lock = await _unless_stopped(_hold_postgres(settings), stop)
    taken: list[tuple[str, str]] = []  # (what, the line)

    def on_taken(what: str) -> None:
        if what == LOCK_LOST:
            line = _pg_lost(settings, lock.lost_seconds)
        else:
            line = _pg_busy(settings, what, running=True)
        if stop.is_set():  # (SIGTERM/SIGINT came first: a plain stop, status 0, as _TokenTaken)
            log.warning("%s", line)
            return
        taken.append((what, line))
        log.error("%s", line)
        stop.set()

    lock.watch(on_taken)
    try:
        await _serve_on(settings, stop)
    except _StoppedStarting:
        if not taken:
            raise
    finally:
        await lock.release()
    if taken:
        what, line = taken[0]
        raise DatabaseLost(line) if what == LOCK_LOST else DatabaseTaken(line)


async def _hold_postgres(settings: Settings) -> PostgresLock:
    """The lock on ``DATABASE_URL``'s database (:class:`bot.dblock.PostgresLock`), before
    the store opens it (a refused bot applies no migration): exclusive for a single process,
    shared for a worker beside its own ``WORKER_ID``'s. Two plain bots on one database both
    restored the same tables: messages sent twice, each refusing the other's steps.

    :raises ConfigError: when another process holds it (one line, exit status 2), or the
        server cannot be reached (:class:`OutOfReach`, exit status 75)."""
    assert settings.database_url is not None
    try:
        return await PostgresLock.take(settings.database_url.get_secret_value(), settings.worker_id)
    except PostgresBusy as exc:
        raise ConfigError(_pg_busy(settings, exc.what, running=False)) from None
    except StorageError as exc:
        raise _postgres_refused(settings, exc) from None


def _pg_lost(settings: Settings, seconds: float) -> str:
    """The line of a bot that could not take its PostgreSQL lock again in time (``seconds``
    after its connection dropped: :data:`bot.dblock.PG_LOST_SECONDS`, or less where the
    server's keepalives end the lost session sooner, :func:`bot.dblock.lost_window`)."""
    return (
        f"lost the lock on the database {database_name(settings)} (its connection dropped) and "
        f"could not take it again within {seconds:g} s: this bot stops, so that no "
        "other bot serves its tables beside it (restarted, it waits for the server: "
        "docs/operations.md)"
    )


def _pg_busy(settings: Settings, what: str, *, running: bool) -> str:
    """The line of a PostgreSQL lock another process holds (``what``: see
    :class:`bot.dblock.PostgresBusy`), at the start or, ``running``, once the bot had lost it."""
    name = database_name(settings)
    if running:
        who = (
            f"another worker with WORKER_ID={settings.worker_id}"
            if what == "worker"
            else "another bot"
        )
        return (
            f"lost the lock on the database {name} (its connection dropped) and {who} holds it "
            "now: this bot stops (one bot per database, or workers each with its own WORKER_ID: "
            "docs/operations.md)"
        )
    if what == "worker":
        return (
            f"another worker with WORKER_ID={settings.worker_id} is running on the database "
            f"{name}: give each worker its own WORKER_ID"
        )
    if settings.worker_id is not None:
        return (
            f"a bot without WORKER_ID is running on the database {name}: workers share a "
            "database only with workers; stop it first"
        )
    return (
        f"another bot (or a worker) is running on the database {name}: stop it first, or give "
        "this one its own database (several processes on one database are workers, each with "
        f"its own WORKER_ID: docs/operations.md){_router_hint(settings)}"
    )


def _router_hint(settings: Settings) -> str:
    """What a plain bot refused its database adds when its settings look like a cluster's
    router's (``TELEGRAM_WEBHOOK_URL`` set, no ``WORKER_ID``): started without ``--router``
    (a systemd template unit ``ofc@router`` of the workers' ``ExecStart``), it was refused
    beside the workers with no word of the flag. ``""`` otherwise."""
    if settings.worker_id is not None or settings.telegram_webhook_url is None:
        return ""
    return "; if this is the cluster's router, start it with python -m bot --router"


async def _not_the_sandboxs(store: Store, path: str) -> None:
    """Refuse the SQLite database ``path`` when it is the sandbox's (``DATABASE_PATH``
    naming the sandbox's file, ``sandbox.sqlite3``): it holds the sandbox's open table, which
    the bot restored and wrote to the sandbox's made-up group, its computer players among the
    real ones; or the sandbox's group with its table closed (``/closetable``, which the check
    missed: the bot then ran on the sandbox's file, its made-up players and their kush among
    the real groups').

    :raises ConfigError: one line naming the file."""
    from bot.sandbox import GROUP_ID

    if await store.chat_table("telegram", str(GROUP_ID)) is not None:
        what = "table"
    elif await asyncio.to_thread(_has_community, path, "telegram", str(GROUP_ID)):
        what = "group"
    else:
        return
    raise ConfigError(
        f"DATABASE_PATH={path} is the sandbox's database (it holds the sandbox's {what}): "
        "give the bot its own file (python -m bot --sandbox plays on its own, --sandbox-db)"
    )


def _has_community(path: str, platform: str, external_id: str) -> bool:
    """Whether the SQLite database ``path`` (open) has the community ``external_id`` of
    ``platform``, with a table or not (:meth:`Store.community` would create it); read only."""
    uri = Path(path).resolve().as_uri() + "?mode=ro"
    with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
        row = db.execute(
            "SELECT 1 FROM communities WHERE platform = ? AND external_id = ?",
            (platform, external_id),
        ).fetchone()
    return row is not None


async def _serve_on(settings: Settings, stop: asyncio.Event) -> None:
    """:func:`_serve` once any PostgreSQL lock is held. :raises _StoppedStarting: as its
    name says."""
    db = Path(settings.database_path)
    fresh = settings.database_url is None and not db.exists()
    lock: int | None = None
    if settings.database_url is None:  # (not cancelled: aiosqlite's thread would be left)
        lock = _hold_sqlite(settings, fresh=fresh)
        try:
            store = await open_store(settings)
        except BaseException:
            if fresh:  # (the lock made it empty; the open may have made its companions)
                _remove_fresh(db, lock)
            let_go(lock)
            raise
    else:
        store = await _unless_stopped(open_store(settings), stop)
    adapters: list[_Adapter] = []
    started = False
    token_taken = _TokenTaken(stop)  # (another process takes the token's updates)
    discord_ended = _DiscordEnded(stop)  # (Discord alone, its connection ended for good)

    telegram = None
    discord_adapter = None
    worker: Worker | None = None
    try:
        if settings.database_url is None:
            await _not_the_sandboxs(store, settings.database_path)
        service = _table_service()(
            store,
            decisions_in_process=settings.decisions_in_process,
            storage_wait=settings.storage_wait_seconds,
        )
        if settings.worker_id is not None:  # one of several workers (issue 14)
            from bot.cluster import Worker

            shards = settings.shard_ids
            worker = Worker(
                service,
                settings.worker_id,
                settings.worker_url,
                ttl=settings.lease_seconds,
                discord_shards=(
                    None
                    if settings.discord_bot_token is None or shards is None
                    else (shards, settings.shard_count or 1)
                ),
            )
    except BaseException:  # (the store and the file's lock were left open)
        await _close_store(store, db if fresh else None, lock)
        raise
    try:
        if settings.telegram_bot_token is not None:
            from bot.telegram import TelegramAdapter

            telegram = TelegramAdapter(
                service,
                settings.telegram_bot_token.get_secret_value(),
                settings.telegram_api_base_url,
            )
            adapters.append(telegram)
            telegram.on_token_taken = token_taken
            if worker is not None:
                worker.attach_telegram(telegram)  # fed the updates the router forwards
            with _bot_api_errors(settings.telegram_api_base_url):  # updates: after restore
                await _unless_stopped(telegram.start(polling=False), stop)
            if settings.worker_id is not None:  # (polling's and the webhook's line: once
                # they run, _take_updates; "webhook" came before setWebhook, refused or not)
                mode = f"worker {settings.worker_id} (updates forwarded by the router)"
                log.info("Telegram: %s as @%s", mode, telegram.presenter.username)
        if settings.discord_bot_token is not None:
            from discord import ConnectionClosed, DiscordServerError

            from bot.discord import DiscordAdapter, LoginFailure, PrivilegedIntentsRequired
            from bot.discord.adapter import (
                MEMBERS_INTENT_REFUSED,
                TOKEN_REFUSED,
                TooManyShards,
                default_intents,
                token_refused,
            )

            discord_adapter = DiscordAdapter(
                service,
                settings.discord_bot_token.get_secret_value(),
                intents=default_intents(members=settings.discord_members_intent),
                # a worker connects the shards whose leases it takes (worker.start)
                shard_ids=[] if worker is not None else settings.shard_ids,
                shard_count=settings.discord_shard_count,  # ("auto": Discord's count)
                max_shards=MAX_SHARDS_PER_PROCESS,
            )
            adapters.append(discord_adapter)
            if worker is not None:  # chats claimed first, DM presses forwarded, shards run
                worker.attach_discord(discord_adapter)
            try:
                await _unless_stopped(discord_adapter.start(), stop)
            except LoginFailure:  # (a 401 at login: the same line as a 4004, below)
                raise ConfigError(TOKEN_REFUSED) from None
            except PrivilegedIntentsRequired:  # (close code 4014)
                raise ConfigError(MEMBERS_INTENT_REFUSED) from None
            except TooManyShards as exc:  # (DISCORD_SHARD_COUNT=auto: past one process's)
                raise ConfigError(str(exc)) from None
            except ConnectionClosed as exc:  # (a traceback: 4004, 4011 sharding required …)
                if token_refused(exc):  # (4004: the token, one line wherever it is refused)
                    raise ConfigError(TOKEN_REFUSED) from None
                raise ConfigError(_discord_closed(exc.code)) from None
            except (OSError, TimeoutError, DiscordServerError) as exc:  # (75: restarted)
                raise OutOfReach(
                    f"cannot reach Discord ({error_name(exc)}): check the network"
                ) from None
            if telegram is None:  # nothing else served: its end for good stops the bot
                discord_adapter.on_ended = discord_ended
            auto = discord_adapter.auto_shard_count  # (DISCORD_SHARD_COUNT=auto)
            if worker is None and (settings.shard_ids is not None or auto is not None):
                count = settings.shard_count or auto or 1  # (every shard: here)
                last = len(settings.shard_ids or range(count)) - 1
                named = settings.discord_shard_ids or ("0" if not last else f"0-{last}")
                log.info(
                    "Discord: connected as %s (shards %s of %s%s)",
                    discord_adapter.client.user,
                    named,
                    count,
                    ", as Discord recommends" if auto is not None else "",
                )
            elif worker is None:
                log.info("Discord: connected as %s", discord_adapter.client.user)
            else:
                log.info("Discord: logged in as %s (shards as leased)", discord_adapter.client.user)
        if worker is not None:  # one of several workers (issue 14)
            service.warm_up()  # (as service.start: the first picture finds its process up)
            from bot.cluster import ListenError

            # (SIGTERM while a hung worker is asked: a stop, not a start that then stopped)
            refused = await _unless_stopped(worker.peers_refusal(), stop)
            if refused is not None:
                raise ConfigError(refused)
            try:
                await worker.start(split_listen(settings.worker_listen))
            except ListenError as exc:  # (a traceback: another worker's WORKER_LISTEN)
                raise ConfigError(
                    f"cannot listen on WORKER_LISTEN={settings.worker_listen}: {exc}; "
                    "give each worker a port of its own"
                ) from None
            log.info(
                "worker %s: internal endpoint %s, database %s",
                settings.worker_id,
                settings.worker_url,
                database_name(settings)  # (it said "DATABASE_URL (PostgreSQL)": which one?)
                if settings.database_url is not None  # (SQLite: every process on this machine)
                else f"{settings.database_path} (SQLite: the router and every worker on this "
                "machine, on this file)",
            )
        else:
            await service.start()
            if discord_adapter is not None:  # (a close the bot's return, unseen, undoes)
                await discord_adapter.look_at_restored()
            if telegram is not None:  # (a mute that ran out meanwhile sent no update)
                await telegram.look_at_restored()
            if telegram is not None:  # (deleteWebhook, setWebhook: the Bot API lost meanwhile)
                with _bot_api_errors(settings.telegram_api_base_url):
                    await _take_updates(telegram, settings)
        started = True
        settle_heap()
        log.info(
            "bot running; %d open table(s) restored; database %s",
            len(service.tables),
            database_name(settings),
        )
        await stop.wait()
    finally:
        serving = len(service.tables)
        if worker is not None and started:
            await worker.stop()  # saves what is still ours, gives the leases up at once
        else:
            await service.stop()
        for adapter in reversed(adapters):
            with contextlib.suppress(Exception):
                await adapter.stop()
        # (do not leave an empty database behind a failed start)
        await _close_store(store, db if fresh and not started else None, lock)
    if started:  # (the log ended in python-telegram-bot's "Application.stop() complete")
        log.info("%s", _stopped_line(settings, serving))
    token_taken.raise_if_taken()
    discord_ended.raise_if_taken()


def _stopped_line(settings: Settings, tables: int) -> str:
    """The last line of a bot or worker that stopped after running (SIGTERM, Ctrl-C, or a
    stop of its own, whose error line came first): ``tables`` open tables were saved, and
    where they resume."""
    if settings.worker_id is not None:
        return (
            f"worker {settings.worker_id} stopped: {tables} open table(s) saved and their "
            "leases given up (the live workers take them over)"
        )
    return f"bot stopped: {tables} open table(s) saved (the next start resumes them)"


def _discord_closed(code: int) -> str:
    """The start's one line (a :class:`ConfigError`, exit status 2: a setting, the token or
    discord.py to change first) for a gateway connection Discord closed for good before it
    was ready (``code``, Discord's close code: what to do is
    :func:`bot.discord.adapter.close_code_advice`'s; 4014, the members intent, comes as
    discord.py's ``PrivilegedIntentsRequired`` with a line of its own)."""
    from bot.discord.adapter import close_code_advice

    return f"Discord closed the connection at the start (close code {code}): " + (
        close_code_advice(code)
    )


async def _close_store(store: Store, fresh: Path | None, lock: int | None) -> None:
    """Close ``store``, then remove the SQLite database ``fresh`` (one this start made, its
    start failed: :func:`_remove_fresh`), then let the file's lock go (:func:`let_go`: after
    the store, as SQLite's own locks go with any descriptor of the file)."""
    try:
        await store.close()
    finally:
        if fresh is not None:
            _remove_fresh(fresh, lock)
        let_go(lock)


def _remove_fresh(db: Path, lock: int | None) -> None:
    """Remove the SQLite database ``db`` this start made (it was not there before) and its
    companions (``-wal``, ``-shm``, ``-journal``): a failed start leaves no empty database.
    Not while another process holds the file (``lock``, this start's descriptor of it, is
    not alone: :func:`bot.dblock.held_alone`): a worker started on the new file meanwhile
    would have lost its database, its tables gone with the unlinked file."""
    if not held_alone(lock):
        return
    for suffix in ("", "-wal", "-shm", "-journal"):
        Path(str(db) + suffix).unlink(missing_ok=True)


def _hold_sqlite(settings: Settings, *, fresh: bool = False) -> int | None:
    """The lock on ``DATABASE_PATH`` (:func:`bot.dblock.hold_database`), before the store
    opens it: exclusive for a single process, shared for a worker (``WORKER_ID``). Two plain
    ``python -m bot`` on one file both restored the same tables: messages sent twice, steps
    refused as "changed meanwhile". ``None`` when the file cannot be opened (the store's
    open then says why).

    :raises ConfigError: when another process holds the file: a bot or a sandbox, or (for a
        worker) a bot, a sandbox or a worker of the same ``WORKER_ID`` (one line, exit
        status 2; nothing opened, nothing made or removed), or when a worker's own lock
        fails otherwise (not expected: one line too, the descriptor closed, the file removed
        when ``fresh``: this start made it)."""
    db = Path(settings.database_path)
    worker = settings.worker_id is not None
    try:
        lock = hold_database(db, shared=worker)
    except OSError:
        return None
    if lock is None:
        path = db.resolve()
        if worker:
            raise ConfigError(
                f"a bot without WORKER_ID or a sandbox is running on the SQLite database {path}: "
                "workers share a file only with workers; stop it first"
            )
        raise ConfigError(
            f"another bot (or a sandbox) is running on the SQLite database {path}: stop it "
            "first, or give this one its own DATABASE_PATH (several processes on one database "
            f"are workers, each with its own WORKER_ID: docs/operations.md){_router_hint(settings)}"
        )
    try:
        held = settings.worker_id is None or hold_worker(lock, settings.worker_id)
    except OSError as exc:  # (not expected: a traceback, the descriptor left open)
        if fresh:  # (the lock made it: ``fresh``, it was not there before this start)
            _remove_fresh(db, lock)
        let_go(lock)
        raise ConfigError(
            f"cannot lock the SQLite database {db.resolve()} for WORKER_ID="
            f"{settings.worker_id} ({exc.strerror or exc}): check DATABASE_PATH in .env"
        ) from None
    if not held:
        let_go(lock)
        raise ConfigError(
            f"another worker with WORKER_ID={settings.worker_id} is running on the SQLite "
            f"database {db.resolve()}: give each worker its own WORKER_ID"
        )
    return lock


async def run_router(settings: Settings, stop: asyncio.Event | None = None) -> None:
    """Run the front process of several workers (issue 14) until ``stop`` (or SIGINT/SIGTERM):
    Telegram's webhook in, every update forwarded to the worker serving its chat.

    :raises ConfigError: without a token, a webhook URL and secret, or the store.
    :raises TokenTaken: when another process deleted or replaced the webhook (logged then;
        :mod:`bot.telegram.one_bot`)."""
    if settings.telegram_bot_token is None and settings.telegram_webhook_url is None:
        raise ConfigError("the router needs TELEGRAM_BOT_TOKEN and TELEGRAM_WEBHOOK_URL")
    if settings.telegram_bot_token is None:  # (the line named both, one of them set: nu59)
        raise ConfigError("the router needs TELEGRAM_BOT_TOKEN, the workers' own")
    if settings.telegram_webhook_url is None:
        raise ConfigError(
            "the router needs TELEGRAM_WEBHOOK_URL (the public HTTPS URL Telegram posts the "
            "updates to) and TELEGRAM_WEBHOOK_SECRET: it takes them by webhook only"
        )
    if settings.telegram_webhook_secret is None:  # pragma: no cover - the settings check it
        raise ConfigError("the router needs TELEGRAM_WEBHOOK_SECRET")
    from bot.cluster import ListenError, Router

    stop = stop or asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError):
            loop.add_signal_handler(sig, stop.set)
    if settings.database_url is None:
        _workers_sqlite(Path(settings.database_path))
    store = await open_store(settings)
    token_taken = _TokenTaken(stop)  # (another process deleted or replaced the webhook)

    router = Router(
        store,
        settings.telegram_bot_token.get_secret_value(),
        settings.telegram_api_base_url,
        on_token_taken=token_taken,
    )
    host, port = split_listen(settings.telegram_webhook_listen)
    ran = True  # (no line: a start that stopped or failed said so)
    try:
        # (another token: their chats silent; SIGTERM meanwhile stops the start at once)
        refused = await _unless_stopped(router.peers_refusal(), stop)
        if refused is not None:
            raise ConfigError(refused)
        # (a traceback of 105 lines ended in NetworkError; a refused URL said "cannot reach")
        with (
            _bot_api_errors(settings.telegram_api_base_url),
            _webhook_refused(settings.telegram_webhook_url),
        ):
            start = router.start(
                settings.telegram_webhook_url,
                settings.telegram_webhook_secret.get_secret_value(),
                host,
                port,
            )
            try:
                await _unless_stopped(start, stop)
            except ListenError as exc:
                raise ConfigError(
                    "cannot listen on TELEGRAM_WEBHOOK_LISTEN="
                    f"{settings.telegram_webhook_listen}: {exc}"
                ) from None
        live = await router.live_workers(fresh=True)
        log.log(
            logging.INFO if live else logging.WARNING,
            "router: webhook %s on %s; database %s; %s",
            settings.telegram_webhook_url,
            settings.telegram_webhook_listen,
            database_name(settings),
            f"{len(live)} live worker(s): {', '.join(live)}"
            if live
            else "no live worker on this database yet: start the workers on it (their "
            f"DATABASE_URL or DATABASE_PATH); an update no worker takes within "
            f'{router.retry_seconds:g} s is dropped ("no worker took update …")',
        )
        await stop.wait()
    except _StoppedStarting:
        log.info("stopped while starting")
        ran = False
    finally:
        await router.stop()
        await store.close()
    if ran:  # (the updates under way were forwarded first: Router.stop)
        log.info("router stopped")
    token_taken.raise_if_taken()


def _workers_sqlite(path: Path) -> None:
    """Refuse a router on an SQLite file no worker has run on: the router finds the workers
    only in the database they share (their heartbeats and leases), so one started without
    ``DATABASE_URL`` made a new ``ofc.sqlite3`` of its own, answered Telegram 200 for every
    update and forwarded none ("no worker took update 1" half a minute later). Workers on
    one machine may share one SQLite file (``tests/bot/cluster/test_discord_failover.py``);
    then they start first, and the router's ``DATABASE_PATH`` names their file.

    :raises ConfigError: when ``path`` is no database a worker has written its heartbeat to
        (nothing is created)."""
    import sqlite3

    workers = 0
    if path.is_file():
        try:
            with contextlib.closing(sqlite3.connect(path)) as db:  # (it is a file: none made)
                workers = db.execute("SELECT count(*) FROM workers").fetchone()[0]
        except sqlite3.Error:
            workers = 0
    if not workers:
        raise ConfigError(
            "the router needs the workers' database: set DATABASE_URL to their PostgreSQL "
            f"database (or DATABASE_PATH to their SQLite file on this machine, once a worker "
            f"has started; no worker has run on {path})"
        )
