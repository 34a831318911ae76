-- Ownership among instances: each unfinished match is owned by one instance (`owner`)
-- until `lease_until` (the database's clock), under `epoch`, which every claim raises.
-- An append carries the epoch it was written under and is refused unless the match's
-- owner and epoch are still the writer's: an instance whose lease was taken over can
-- never write again.
ALTER TABLE matches
    ADD COLUMN owner TEXT,
    ADD COLUMN epoch BIGINT NOT NULL DEFAULT 0,
    ADD COLUMN lease_until TIMESTAMPTZ;

-- The epoch an entry was written under (NULL: before leases).
ALTER TABLE entries ADD COLUMN epoch BIGINT;

CREATE INDEX matches_claimable ON matches (lease_until) WHERE finished = 0;
