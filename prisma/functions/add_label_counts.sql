-- Adds count increments to annotators' rows in one label scope, creating the rows they lack: a decided
-- task's answerers (settle_task) and a golden answer's annotator (LabelCountsRepository).
-- p_increments: [{annotatorId, matrix (the K² deltas row-major, or [] for the one-coin form), correct,
-- answered}], K = p_option_count. Rows are locked in annotatorId order, after the annotators' own rows:
-- the order every writer of the counts uses.
CREATE OR REPLACE FUNCTION public.add_label_counts(p_scope_key text, p_option_count integer, p_increments jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO annotator_scope_counts AS c (scope_key, annotator_id, matrix, correct, answered)
  SELECT p_scope_key, i."annotatorId", label_counts_add(array_fill(0::double precision, ARRAY[p_option_count * p_option_count]), i.matrix),
         i.correct, i.answered
  FROM jsonb_to_recordset(p_increments) AS i("annotatorId" text, matrix double precision[], correct double precision, answered double precision)
  ORDER BY i."annotatorId"
  ON CONFLICT (scope_key, annotator_id) DO UPDATE SET
    matrix = label_counts_add(c.matrix, excluded.matrix), correct = c.correct + excluded.correct, answered = c.answered + excluded.answered;
END $function$
;
