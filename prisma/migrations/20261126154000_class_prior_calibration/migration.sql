-- A label scope's class prior (how often each of its options is the truth) and the confidence map fitted on
-- its golden tasks, both written by the re-fit and read by the answer path (CONTRACT §5). NULL until the
-- scope's first re-fit: a uniform prior and the identity map.
ALTER TABLE label_scopes ADD COLUMN class_prior double precision[];
ALTER TABLE label_scopes ADD COLUMN calibration jsonb;
