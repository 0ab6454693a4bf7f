-- The demo's yoga class said "Ninety minutes" but lasted {90, unit: "hour"}: ninety hours.
-- Durations are whole days or hours, so the class now lasts one hour and says so (seed/demo.ts).
-- The seed never rewrites a product it already made: this fixes databases seeded before.
UPDATE products
   SET duration = '{"is_flexible":false,"min":1,"default":1,"unit":"hour","variants":[]}',
       description = 'An hour of vinyasa flow on the deck.',
       extended_description = CASE WHEN extended_description = 'Ninety minutes of vinyasa flow on the deck.' THEN 'An hour of vinyasa flow on the deck.' ELSE extended_description END,
       translations = json_set(translations, '$.de.description', 'Eine Stunde Vinyasa Flow auf dem Deck.')
 WHERE id = 302
   AND business_id = (SELECT id FROM businesses WHERE slug = 'demo')
   AND json_extract(duration, '$.default') = 90
   AND json_extract(duration, '$.unit') = 'hour';
