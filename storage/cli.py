"""What the two command lines, ``python -m bot`` (:mod:`bot.__main__`) and ``python -m
storage`` (:mod:`storage.__main__`), share: the exit status of a server out of reach and the
refusal of an ``--env-file`` that is not there. Here, the lower layer, so that ``storage``
imports nothing of ``bot`` (but for ``python -m storage``'s warning of the variables the bot
does not read, which only the bot's settings know: ``storage.__main__._warn_unread``)."""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["EX_TEMPFAIL", "refuse_missing_env_file"]

#: the exit status of a platform or the database out of reach (``bot.config.OutOfReach``,
#: :class:`storage.api.StorageUnreachable`): sysexits.h's ``EX_TEMPFAIL``, "try again later":
#: a service manager restarts it, while 2 (a setting, a token, a URL or a file to change
#: first) it should not
EX_TEMPFAIL = 75


def refuse_missing_env_file(env_file: str | None) -> bool:
    """Whether ``--env-file`` (``env_file``; ``None``: not given) names a file that is not
    there, its one ``error:`` line then written to standard error (the command exits with
    status 2). Read as no file, a typo started the bot (or the sandbox) on the environment's
    settings, or checked the default ``ofc.sqlite3``, without a word; ``.env`` itself, the
    default, may be missing. A folder (or a device, ``/dev/null``) is refused too, the line
    saying which it is."""
    if env_file is None or Path(env_file).is_file():
        return False
    # (opsnu43: a folder given, "--env-file /srv/ofc", was told "there is no /srv/ofc")
    what = (
        f"{env_file} is a folder"
        if Path(env_file).is_dir()
        else f"{env_file} is no regular file"
        if Path(env_file).exists()
        else f"there is no {env_file}"
    )
    print(f"error: {what} (--env-file names the bot's settings file)", file=sys.stderr)
    return True
