"""The Discord adapter (discord.py 2.7): slash commands and component presses in, messages out."""

import warnings

# discord.py imports the standard library's audioop (for voice, which the bot does not use);
# Python 3.11–3.12 warn that it is deprecated. Import discord once with that warning muted.
with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "'audioop' is deprecated", DeprecationWarning)
    import discord  # noqa: F401

from discord import LoginFailure, PrivilegedIntentsRequired

from bot.discord.adapter import DiscordAdapter
from bot.discord.presenter import DiscordPresenter

__all__ = ["DiscordAdapter", "DiscordPresenter", "LoginFailure", "PrivilegedIntentsRequired"]
