-- 010_last_tables: the table each platform user joined last (a join or a tournament
-- registration: Store.commit's Joined move, written in the transaction that seats them).
-- The time bank refills when the player joins another table, not when they leave and rejoin
-- the same one (R8.6): a table that kept the bank of someone who left it gives it back only
-- if they joined no other table since, whichever worker served that one, before a restart
-- or after. By platform and user: a player row is one community's. "IF NOT EXISTS": tests
-- that take a database back to an older version keep the table.
CREATE TABLE IF NOT EXISTS last_tables (
    platform TEXT   NOT NULL,
    user_id  TEXT   NOT NULL,
    table_id BIGINT NOT NULL REFERENCES tables (id),
    PRIMARY KEY (platform, user_id)
);
