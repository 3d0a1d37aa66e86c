-- 007_chinese_bonuses: Chinese Poker's strength bonuses (R7.2) are no royalties (R5.6): they
-- are part of a hand's points. /stats counted them in "royalties/hand" with the open-face
-- games' royalties; they get columns of their own, with the boards they are counted over.
-- Entries written before kept them in royalties: those of a Chinese Poker hand (its stored
-- options' game) move.
ALTER TABLE hand_players ADD COLUMN bonuses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_players ADD COLUMN bonus_boards INTEGER NOT NULL DEFAULT 0;
UPDATE hand_players SET bonuses = royalties, royalties = 0, bonus_boards = boards
WHERE hand_id IN (
    SELECT id FROM hands WHERE hand -> 'setup' -> 'options' ->> 'game' = 'chinese'
);
