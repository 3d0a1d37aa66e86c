"""The bot: the platform-neutral table service and the Telegram and Discord adapters."""
