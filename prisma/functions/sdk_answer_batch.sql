-- Several answers' first calls (no settlement) in one statement: sdk_answer for each request in turn, in
-- the order given (the caller sorts them by task, so two batches lock tasks in the same order). lock_timeout
-- ends any lock wait within 50 ms (the caller then takes the batch's answers one by one) instead of
-- PostgreSQL's one-second deadlock check.
CREATE OR REPLACE FUNCTION public.sdk_answer_batch(p_requests jsonb)
 RETURNS TABLE(request integer, outcome text, annotator_id text, id text, buyer_id text, type text, options text[], status text, max_cents integer, cost_cents integer, validations_needed integer, max_responses integer, total_responses integer, participants jsonb, model jsonb)
 LANGUAGE plpgsql
 SET lock_timeout TO '50ms'
AS $function$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT (e.ordinality - 1)::int AS n, e.value AS v FROM jsonb_array_elements(p_requests) WITH ORDINALITY e LOOP
    RETURN QUERY
      SELECT r.n, s.* FROM sdk_answer(
        r.v->>'developerId', r.v->>'externalId', r.v->>'newAnnotatorId', r.v->>'taskId', r.v->>'answer',
        (r.v->>'timeSpentMs')::integer, r.v->>'responseId', (r.v->>'now')::timestamptz, NULL, NULL) s;
  END LOOP;
END $function$
;
