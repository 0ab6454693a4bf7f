-- Indexes for the paged lists of the private API (issue 6, measured by `npm run bench`).
--
-- GET /private/persons pages in the order of its sort (first_name, last_name or none, then
-- created_at and id) and computes each person's totals with correlated subqueries. Without an
-- index in that order SQLite sorts every person of the business in a temporary B-tree, computing
-- the totals for all of them first: 100,000 persons made a 10-row page ~18x slower than 1,000.
-- With these, the page is read in order and stops after `limit` rows.
CREATE INDEX persons_page_created ON persons(business_id, created_at, id) WHERE deleted_at IS NULL;
-- The name sorts put missing names last: ORDER BY (name IS NULL), name COLLATE NOCASE, created_at,
-- id. SQLite matches an ORDER BY term to an indexed expression only when it is written the same
-- way, and cannot match `(name COLLATE NOCASE) IS NULL` at all (a collation inside IS NULL), so
-- the sort must say `(p.last_name IS NULL)` (same meaning) for these to serve it.
CREATE INDEX persons_page_last ON persons(business_id, (last_name IS NULL), last_name COLLATE NOCASE, created_at, id) WHERE deleted_at IS NULL;
CREATE INDEX persons_page_first ON persons(business_id, (first_name IS NULL), first_name COLLATE NOCASE, created_at, id) WHERE deleted_at IS NULL;

-- GET /private/guests?booking_id=...: both equalities in one index, so the planner never walks
-- every guest of the business (without statistics it chose the business's index).
CREATE INDEX guests_business_booking ON guests(business_id, booking_id);
