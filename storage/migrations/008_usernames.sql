-- 008_usernames: who a platform's @username names (Telegram: "/grant @anna 100", "/stats
-- @anna"), learned from each user's own updates; kept so that a restart still finds a
-- member by it before they write again. name_key is the username as storage._common.name_key
-- writes it (no "@", case-folded). A username names one user at a time (it moves to whoever
-- takes it next), and a user has one username (their older ones are dropped). "IF NOT
-- EXISTS": tests that take a database back to an older version keep the table.
CREATE TABLE IF NOT EXISTS usernames (
    platform TEXT NOT NULL,
    name_key TEXT NOT NULL,
    user_id  TEXT NOT NULL,
    PRIMARY KEY (platform, name_key)
);
CREATE INDEX IF NOT EXISTS usernames_user ON usernames (platform, user_id);
