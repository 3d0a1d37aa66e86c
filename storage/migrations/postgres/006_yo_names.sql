-- 006_yo_names: a player is looked up by name_key, the case-folded display name
-- (storage._common.name_key), which now reads "ё" as "е" (most Russians type "е": "/stats
-- Алена" did not find "Алёна"). Keys stored before kept their "ё" (case-folding makes every
-- "Ё" an "ё"): they are rewritten as the code writes them now.
UPDATE players SET name_key = replace(name_key, 'ё', 'е') WHERE name_key LIKE '%ё%';
