"""Storage: async SQLite (aiosqlite) for players, kush wallets, the ledger, tables, hand history
and snapshots."""
