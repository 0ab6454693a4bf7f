-- What a request under an Idempotency-Key made (its cart or its booking), written in the same
-- batch as the change itself. Its answer is recorded after the change, in a write of its own; a
-- process that dies between the two left the key "running" with nothing to replay, so a retry
-- was told "in progress" and then, once the record went stale, ran the request again (a second
-- cart, or 409 for a cart already booked). With the resource recorded, the retry is answered
-- with what the first request made.
ALTER TABLE idempotency ADD COLUMN resource TEXT;
