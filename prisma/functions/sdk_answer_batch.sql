-- Several answers' first calls (no settlement) in one statement: sdk_answer for each request in turn, in
-- the order given (the caller sorts them by task, so two batches lock tasks in the same order). lock_timeout
-- ends any lock wait within 50 ms (the caller then takes the batch's answers one by one) instead of
-- PostgreSQL's one-second deadlock check. A request that carries `next` ({assignmentId, newAnnotatorId,
-- locale, types, goldenRoll, expiresAt}: POST complete with `next`, CONTRACT §5) and whose answer is stored
-- (ANSWERED) is also claimed its next assignment right after, in the same transaction, by sdk_next with
-- its filters — what GET /sdk/tasks/next would return at that moment — in the next_* columns (null when
-- no claim was made: the caller then claims as for GET next).
CREATE OR REPLACE FUNCTION public.sdk_answer_batch(p_requests jsonb, p_golden_rate double precision)
 RETURNS TABLE(request integer, outcome text, annotator_id text, id text, buyer_id text, type text, options text[], status text, max_cents integer, cost_cents integer, validations_needed integer, max_responses integer, total_responses integer, participants jsonb, model jsonb, next_outcome text, next_assignment_id text, next_expires_at timestamp with time zone, next_id text, next_buyer_id text, next_type text, next_content text, next_options text[], next_locale text)
 LANGUAGE plpgsql
 SET lock_timeout TO '50ms'
AS $function$
DECLARE
  r record;
  a record;
BEGIN
  FOR r IN SELECT (e.ordinality - 1)::int AS n, e.value AS v FROM jsonb_array_elements(p_requests) WITH ORDINALITY e LOOP
    SELECT * INTO a FROM sdk_answer(
      r.v->>'developerId', r.v->>'externalId', r.v->>'newAnnotatorId', r.v->>'taskId', r.v->>'answer',
      (r.v->>'timeSpentMs')::integer, r.v->>'responseId', (r.v->>'now')::timestamptz, NULL, NULL) s;
    IF a.outcome = 'ANSWERED' AND jsonb_typeof(r.v->'next') = 'object' THEN
      RETURN QUERY
        SELECT r.n, a.outcome, a.annotator_id, a.id, a.buyer_id, a.type, a.options, a.status, a.max_cents, a.cost_cents,
               a.validations_needed, a.max_responses, a.total_responses, a.participants, a.model, x.*
        FROM sdk_next(
          r.v->>'developerId', r.v->>'externalId', r.v->'next'->>'newAnnotatorId', r.v->'next'->>'assignmentId', r.v->'next'->>'locale',
          CASE WHEN jsonb_typeof(r.v->'next'->'types') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(r.v->'next'->'types')) END,
          (r.v->>'now')::timestamptz, (r.v->'next'->>'expiresAt')::timestamptz, (r.v->'next'->>'goldenRoll')::double precision, p_golden_rate) x;
    ELSE
      RETURN QUERY
        SELECT r.n, a.outcome, a.annotator_id, a.id, a.buyer_id, a.type, a.options, a.status, a.max_cents, a.cost_cents,
               a.validations_needed, a.max_responses, a.total_responses, a.participants, a.model,
               NULL::text, NULL::text, NULL::timestamptz, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text[], NULL::text;
    END IF;
  END LOOP;
END $function$
;
