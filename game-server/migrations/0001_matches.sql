-- The matches and their record entries, as the SQLite store keeps them: the head, seats
-- and bots as JSON text, `finished` 0 while the match is played (else how it ended).
CREATE TABLE matches (
    id TEXT PRIMARY KEY,
    head TEXT NOT NULL,
    seats TEXT NOT NULL,
    bots TEXT NOT NULL,
    finished SMALLINT NOT NULL DEFAULT 0
);

CREATE TABLE entries (
    match_id TEXT NOT NULL REFERENCES matches (id),
    seq BIGINT NOT NULL,
    entry TEXT NOT NULL,
    PRIMARY KEY (match_id, seq)
);

CREATE INDEX matches_unfinished ON matches (id) WHERE finished = 0;
