-- 002_hand_stats (PostgreSQL): the per-player figures of every history entry, for /stats and
-- /top by period (issue 12). The same columns and index as ../002_hand_stats.sql (SQLite),
-- in PostgreSQL's types: counts and kush BIGINT, the time DOUBLE PRECISION (Unix seconds,
-- like hands.finished_at; the "all time" period compares it with -Infinity, which a double
-- orders below every time). community_id also references communities, and it and the time
-- have no default: the writer always gives them (storage/_common.py, HAND_PLAYERS_INSERT).
-- Existing rows: this file fills the community and the time; the runner then fills the kind,
-- the kush (the hand_result rows of the ledger) and the figures read from each hand's JSON,
-- in the same transaction (storage/postgres.py, _backfill_hand_stats; the same Python as
-- SQLite's, storage/_common.py, backfill_params).
--   kind: hand | round_end | game_end | tournament_end (game/history.py, SETTLEMENT_KINDS)
--   kush: the entry's kush for the player; boards: boards played (2 with double boxes)
--   points, fouls, royalties, scoops: summed over the player's boards
--   fl_chances / fl_entered / fl_played / fl_stayed: Fantasyland (R6.1, R6.2, R6.4)
ALTER TABLE hand_players
    ADD COLUMN community_id BIGINT REFERENCES communities (id),
    ADD COLUMN finished_at  DOUBLE PRECISION,
    ADD COLUMN kind         TEXT   NOT NULL DEFAULT 'hand',
    ADD COLUMN kush         BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN boards       BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN points       BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN fouls        BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN royalties    BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN scoops       BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN fl_chances   BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN fl_entered   BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN fl_played    BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN fl_stayed    BIGINT NOT NULL DEFAULT 0;

UPDATE hand_players hp SET community_id = t.community_id, finished_at = h.finished_at
    FROM hands h JOIN tables t ON t.id = h.table_id
    WHERE h.id = hp.hand_id;

ALTER TABLE hand_players
    ALTER COLUMN community_id SET NOT NULL,
    ALTER COLUMN finished_at SET NOT NULL;

-- a community's entries by time: group statistics and the leaderboard of a period. The
-- columns of SQLite's index; SQLite adds the primary key to every index by itself, here
-- INCLUDE (hand_id) does, so it covers the leaderboard and the biggest win as there
CREATE INDEX hand_players_by_community
    ON hand_players (community_id, finished_at, player_id, kush, kind) INCLUDE (hand_id);
