-- 001_init: the initial schema (issue 3, R8).
-- Amounts are whole kush (INTEGER); times are Unix seconds (REAL); JSON columns hold compact
-- JSON text. The migration runner (storage/sqlite.py) keeps schema_version itself and runs
-- this file inside one BEGIN IMMEDIATE transaction.

-- A Telegram group or a Discord guild. settings = CommunitySettings.to_json().
CREATE TABLE communities (
    id          INTEGER PRIMARY KEY,
    platform    TEXT    NOT NULL,
    external_id TEXT    NOT NULL,
    title       TEXT    NOT NULL DEFAULT '',
    settings    TEXT    NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
    created_at  REAL    NOT NULL,
    UNIQUE (platform, external_id)
);

-- A person in one community. balance is the wallet (stacks live in table_stacks).
-- name_key is the case-folded display name without a leading '@' (find_player).
CREATE TABLE players (
    id           INTEGER PRIMARY KEY,
    community_id INTEGER NOT NULL REFERENCES communities (id),
    user_id      TEXT    NOT NULL,
    name         TEXT    NOT NULL,
    name_key     TEXT    NOT NULL,
    language     TEXT,
    balance      INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    created_at   REAL    NOT NULL,
    UNIQUE (community_id, user_id)
);
CREATE INDEX players_by_name ON players (community_id, name_key);

-- A table in a chat. options = RuleOptions.to_json(). At most one open table per chat.
CREATE TABLE tables (
    id           INTEGER PRIMARY KEY,
    community_id INTEGER NOT NULL REFERENCES communities (id),
    chat_id      TEXT    NOT NULL,
    options      TEXT    NOT NULL CHECK (json_valid(options)),
    min_buy_in   INTEGER NOT NULL CHECK (min_buy_in >= 0),
    open         INTEGER NOT NULL DEFAULT 1 CHECK (open IN (0, 1)),
    created_at   REAL    NOT NULL,
    closed_at    REAL
);
CREATE UNIQUE INDEX tables_one_open_per_chat ON tables (community_id, chat_id) WHERE open = 1;

-- The table's escrow: one row per seated player with a stack (deleted on cash-out).
CREATE TABLE table_stacks (
    table_id  INTEGER NOT NULL REFERENCES tables (id),
    player_id INTEGER NOT NULL REFERENCES players (id),
    stack     INTEGER NOT NULL CHECK (stack >= 0),
    PRIMARY KEY (table_id, player_id)
) WITHOUT ROWID;
CREATE INDEX table_stacks_by_player ON table_stacks (player_id);

-- Finished hands. hand = Hand.to_json(), result = HandResult.to_json() plus service data,
-- players = {"seat": player id}.
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,
    table_id    INTEGER NOT NULL REFERENCES tables (id),
    number      INTEGER NOT NULL,
    hand        TEXT    NOT NULL,
    result      TEXT    NOT NULL,
    players     TEXT    NOT NULL,
    finished_at REAL    NOT NULL,
    UNIQUE (table_id, number)
);

-- Who played which hand: "last N hands of a player" walks the primary key backwards.
CREATE TABLE hand_players (
    player_id INTEGER NOT NULL REFERENCES players (id),
    hand_id   INTEGER NOT NULL REFERENCES hands (id),
    seat      INTEGER NOT NULL,
    PRIMARY KEY (player_id, hand_id)
) WITHOUT ROWID;

-- The append-only ledger. Every row is balanced by itself except the minting kinds
-- (starting, admin_grant, daily_bonus); hand_result rows move stacks only and sum to zero
-- per hand (checked by the writer and by `python -m storage check`).
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,
    community_id  INTEGER NOT NULL REFERENCES communities (id),
    kind          TEXT    NOT NULL,
    player_id     INTEGER NOT NULL REFERENCES players (id),
    table_id      INTEGER REFERENCES tables (id),
    hand_id       INTEGER REFERENCES hands (id),
    balance_delta INTEGER NOT NULL,
    stack_delta   INTEGER NOT NULL,
    actor         TEXT,
    reason        TEXT,
    key           TEXT    NOT NULL UNIQUE,
    created_at    REAL    NOT NULL,
    CHECK (
        CASE kind
            WHEN 'starting'    THEN stack_delta = 0 AND balance_delta >= 0 AND table_id IS NULL
            WHEN 'daily_bonus' THEN stack_delta = 0 AND balance_delta >= 0 AND table_id IS NULL
            WHEN 'admin_grant' THEN stack_delta = 0 AND table_id IS NULL
            WHEN 'buy_in'      THEN balance_delta + stack_delta = 0 AND stack_delta > 0
                                    AND table_id IS NOT NULL
            WHEN 'cash_out'    THEN balance_delta + stack_delta = 0 AND stack_delta < 0
                                    AND table_id IS NOT NULL
            WHEN 'refund'      THEN balance_delta + stack_delta = 0 AND stack_delta < 0
                                    AND table_id IS NOT NULL
            WHEN 'hand_result' THEN balance_delta = 0 AND table_id IS NOT NULL
                                    AND hand_id IS NOT NULL
            ELSE 0
        END
    )
);
CREATE INDEX ledger_by_community ON ledger (community_id, id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- Idempotency: the first result of every keyed call (kind = operation, result = JSON).
CREATE TABLE operations (
    key        TEXT PRIMARY KEY,
    kind       TEXT NOT NULL,
    result     TEXT NOT NULL,
    created_at REAL NOT NULL
) WITHOUT ROWID;

-- Live table state for restart recovery (one row per table, replaced on every save).
CREATE TABLE snapshots (
    table_id   INTEGER PRIMARY KEY REFERENCES tables (id),
    data       TEXT    NOT NULL CHECK (json_valid(data)),
    updated_at REAL    NOT NULL
);

-- /daily: one claim per player and day.
CREATE TABLE daily_claims (
    player_id  INTEGER NOT NULL REFERENCES players (id),
    day        TEXT    NOT NULL,
    amount     INTEGER NOT NULL CHECK (amount >= 0),
    claimed_at REAL    NOT NULL,
    PRIMARY KEY (player_id, day)
) WITHOUT ROWID;
