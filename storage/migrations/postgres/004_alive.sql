-- A single bot process marks every few seconds that it is running (its own clock, Unix
-- seconds): after a crash, the outage its restart does not count against the players'
-- clocks (R8.5) is measured from the last mark, not from each table's last snapshot.
CREATE TABLE alive (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    at DOUBLE PRECISION NOT NULL
);
