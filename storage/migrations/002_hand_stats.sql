-- 002_hand_stats: the per-player figures of every history entry, for /stats and /top by
-- period (issue 12), so statistics are SQL aggregates and never a walk over the stored JSON.
-- The writer fills them when it records a settlement (storage/_common.py, stat_rows).
-- Existing rows: this file fills the community and the time (primary-key lookups); the
-- runner then fills the kush (the hand_result rows of the ledger, summed in one pass) and the
-- figures read from each hand's JSON, in the same transaction (storage/sqlite.py,
-- _backfill_hand_stats). Plain SQL, so another store can port it.
--   kind: hand | round_end | game_end | tournament_end (game/history.py, SETTLEMENT_KINDS)
--   kush: the entry's kush for the player; boards: boards played (2 with double boxes)
--   points, fouls, royalties, scoops: summed over the player's boards
--   fl_chances / fl_entered / fl_played / fl_stayed: Fantasyland (R6.1, R6.2, R6.4)
ALTER TABLE hand_players ADD COLUMN community_id INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN finished_at REAL NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN kind TEXT NOT NULL DEFAULT 'hand';
ALTER TABLE hand_players ADD COLUMN kush INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN boards INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN points INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN fouls INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN royalties INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN scoops INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN fl_chances INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN fl_entered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN fl_played INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN fl_stayed INTEGER NOT NULL DEFAULT 0;

UPDATE hand_players SET
    community_id = (
        SELECT t.community_id FROM hands h JOIN tables t ON t.id = h.table_id
        WHERE h.id = hand_players.hand_id
    ),
    finished_at = (SELECT h.finished_at FROM hands h WHERE h.id = hand_players.hand_id);

-- a community's entries by time: group statistics and the leaderboard of a period; it
-- covers the leaderboard and the biggest win (player_id, kush, kind; hand_id comes with the
-- primary key), which then never read the table
CREATE INDEX hand_players_by_community
    ON hand_players (community_id, finished_at, player_id, kush, kind);
