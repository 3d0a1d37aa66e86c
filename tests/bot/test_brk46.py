"""brk46: break-it round on fixnonce2, brk45, fixowed2 and ops42.

ops42 checks ``DATABASE_URL``'s port at the start (``urlsplit(url).port``), which refuses a
URL naming several servers, ``postgresql://ofc:pw@db1:5432,db2:5432/ofc`` (libpq's list, which
asyncpg takes: it connects to the first that answers, an operator's standby after a
failover), as "DATABASE_URL is malformed": a bot that ran on it stopped at the start."""

from __future__ import annotations

import pytest
from pydantic import SecretStr, ValidationError

from bot.app import database_name
from bot.config import Settings

SEVERAL = "postgresql://ofc:s3cret-pass@db1:5432,db2:5433/ofc"


def _pg(url: str) -> Settings:
    return Settings(_env_file=None, database_url=SecretStr(url))  # type: ignore[call-arg]


def test_a_database_url_naming_several_servers_is_taken() -> None:
    from asyncpg import connect_utils

    # (asyncpg reads it: both servers, in order)
    addrs, params = connect_utils._parse_connect_dsn_and_args(
        dsn=SEVERAL, host=None, port=None, user=None, password=None, passfile=None,
        database=None, ssl=None, service=None, servicefile=None, direct_tls=None,
        server_settings=None, target_session_attrs=None, krbsrvname=None, gsslib=None,
    )  # fmt: skip
    assert addrs == [("db1", 5432), ("db2", 5433)] and params.database == "ofc"
    settings = _pg(SEVERAL)
    assert database_name(settings) == "ofc on db1:5432,db2:5433 (PostgreSQL)"
    assert database_name(_pg("postgresql://ofc@db1,db2/ofc")) == "ofc on db1,db2 (PostgreSQL)"


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://ofc:s3cret-pass@db1:5432,db2:notaport/ofc",
        "postgresql://ofc:s3cret-pass@db1:5432,db2:99999/ofc",
        "postgresql://ofc:s3cret-pass@db1:5432,[::1/ofc",
    ],
)
def test_a_malformed_server_of_several_is_still_refused(url: str) -> None:
    with pytest.raises(ValidationError) as caught:
        _pg(url)
    assert "DATABASE_URL is malformed" in str(caught.value)
    assert "s3cret-pass" not in str(caught.value)
