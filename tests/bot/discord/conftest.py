"""Import discord.py through :mod:`bot.discord`, which mutes its ``audioop`` deprecation
warning (the test settings turn warnings into errors)."""

import bot.discord  # noqa: F401
