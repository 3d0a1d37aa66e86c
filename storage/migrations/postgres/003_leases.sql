-- Workers sharing the tables (issue 14): a lease per chat held by the worker serving its
-- table, and the workers' heartbeats with the address their forwarded updates go to.
-- Times are Unix seconds of the server's clock. A single process never writes these.
CREATE TABLE leases (
    key        TEXT             PRIMARY KEY,
    worker     TEXT             NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);

CREATE TABLE workers (
    worker     TEXT             PRIMARY KEY,
    address    TEXT             NOT NULL,
    expires_at DOUBLE PRECISION NOT NULL
);
