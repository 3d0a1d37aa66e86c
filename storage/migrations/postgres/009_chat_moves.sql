-- 009_chat_moves: where a chat moved (a Telegram group upgraded to a supergroup:
-- Store.move_chat), written in the transaction that moves it: a worker that never heard of
-- the move (another worker followed it, or this process before a restart) finds it for a
-- command typed in the old chat (Store.moved_chat) instead of opening an empty community
-- under the old id. "IF NOT EXISTS": tests that take a database back to an older version
-- keep the table.
CREATE TABLE IF NOT EXISTS chat_moves (
    platform TEXT NOT NULL,
    old_id   TEXT NOT NULL,
    new_id   TEXT NOT NULL,
    PRIMARY KEY (platform, old_id)
);
