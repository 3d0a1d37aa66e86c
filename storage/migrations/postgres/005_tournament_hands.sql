-- 005_tournament_hands: a tournament's hand (R8.7) moves chips, not kush; /stats counts it
-- apart from the ordinary (cash) hands, as it counts a tournament's payout apart. Entries
-- written before were kind 'hand': those whose result carries the tournament's record
-- become 'tournament_hand' (their figures stay).
UPDATE hand_players SET kind = 'tournament_hand'
WHERE kind = 'hand' AND hand_id IN (
    SELECT id FROM hands WHERE json_typeof(result -> 'tournament') = 'object'
);
