"""A PostgreSQL server that never answers: the start's line was "cannot connect to
PostgreSQL: the server did not answer in time (…)", naming no host, while a host that does
not resolve was named (nu59). Which of the URL's hosts was silent? The timeout's line names
them too (:func:`storage.postgres.url_hosts`), never a piece of the password (ops42)."""

from __future__ import annotations

from storage.api import StorageUnreachable
from storage.postgres import unreachable

SILENT = (
    "cannot connect to PostgreSQL: the server did not answer in time (a silent network or "
    "firewall, a server that hangs, or another service on that port)"
)


def test_a_timeout_names_the_hosts() -> None:
    said = unreachable(TimeoutError(), "postgresql://ofc:secret-pw@db.example:5432/ofc")
    assert str(said) == f"{SILENT} (host db.example)"
    assert isinstance(said, StorageUnreachable)  # (exit status 75, as before)
    said = unreachable(TimeoutError(), "postgresql://ofc:secret-pw@db1,db2:5433/ofc")
    assert str(said) == f"{SILENT} (hosts db1, db2)"


def test_a_timeout_names_no_piece_of_the_password() -> None:
    # a password's unescaped "/" ended the netloc in it: no host is named (url_hosts)
    said = unreachable(TimeoutError(), "postgresql://ofc:pa/xyzzy@db.example/ofc")
    assert str(said) == SILENT
    # without the URL, as before
    assert str(unreachable(TimeoutError())) == SILENT
