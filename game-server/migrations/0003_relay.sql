-- Messages between instances too long for a notification's payload (8,000 bytes): the
-- notification carries the row's id, the receiver deletes the row as it reads it. Rows
-- a receiver never read (it died) are deleted by the senders after a minute.
CREATE TABLE relay (
    id BIGSERIAL PRIMARY KEY,
    body TEXT NOT NULL,
    created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
