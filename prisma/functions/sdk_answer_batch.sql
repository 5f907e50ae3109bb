-- Several answers' first calls (no settlement) in one statement: sdk_answer for each request in turn, in
-- the order given (the caller sorts them by task, so two batches lock tasks in the same order). lock_timeout
-- ends any lock wait within 50 ms (the caller then takes the batch's answers one by one) instead of
-- PostgreSQL's one-second deadlock check. Then, once every answer is taken, each request that carries
-- `next` ({assignmentId, newAnnotatorId, locale, types, goldenRoll, expiresAt}: POST complete with `next`,
-- CONTRACT §5) and whose answer was stored (ANSWERED) is claimed its next assignment by sdk_next with its
-- filters — what GET /sdk/tasks/next would return at that moment — returned as `next` (sdk_next's row as
-- JSON; null when no claim was made: the caller then claims as for GET next). The claims come after all
-- the answers because a claim locks the tasks it looks at (SKIP LOCKED, so it never waits for one): taken
-- between two answers, they would break the task order the batch locks in.
CREATE OR REPLACE FUNCTION public.sdk_answer_batch(p_requests jsonb, p_golden_rate double precision, p_golden_first_rate double precision)
 RETURNS TABLE(request integer, outcome text, annotator_id text, id text, buyer_id text, type text, options text[], status text, max_cents integer, cost_cents integer, validations_needed integer, max_responses integer, total_responses integer, participants jsonb, model jsonb, answer_kind text, allow_empty boolean, next jsonb)
 LANGUAGE plpgsql
 SET lock_timeout TO '50ms'
AS $function$
DECLARE
  r record;
  v_claims jsonb := '[]';
BEGIN
  FOR r IN SELECT (e.ordinality - 1)::int AS n, e.value AS v FROM jsonb_array_elements(p_requests) WITH ORDINALITY e LOOP
    RETURN QUERY
      SELECT r.n, s.*, NULL::jsonb FROM sdk_answer(
        r.v->>'developerId', r.v->>'externalId', r.v->>'newAnnotatorId', r.v->>'taskId', r.v->>'answer',
        (r.v->>'timeSpentMs')::integer, r.v->>'responseId', (r.v->>'now')::timestamptz, NULL, NULL, NULLIF(r.v->'choices', 'null')) s
      WHERE NOT (s.outcome = 'ANSWERED' AND coalesce(jsonb_typeof(r.v->'next'), 'none') = 'object');
    IF NOT FOUND THEN
      v_claims := v_claims || jsonb_build_object('n', r.n, 'v', r.v);
    END IF;
  END LOOP;
  FOR r IN SELECT (c->>'n')::int AS n, c->'v' AS v FROM jsonb_array_elements(v_claims) c LOOP
    RETURN QUERY
      SELECT r.n, 'ANSWERED'::text, NULL::text, NULL::text, NULL::text, NULL::text, NULL::text[], NULL::text, NULL::integer,
             NULL::integer, NULL::integer, NULL::integer, NULL::integer, NULL::jsonb, NULL::jsonb, NULL::text, NULL::boolean, to_jsonb(x)
      FROM sdk_next(
        r.v->>'developerId', r.v->>'externalId', r.v->'next'->>'newAnnotatorId', r.v->'next'->>'assignmentId', r.v->'next'->>'locale',
        CASE WHEN jsonb_typeof(r.v->'next'->'types') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(r.v->'next'->'types')) END,
        (r.v->>'now')::timestamptz, (r.v->'next'->>'expiresAt')::timestamptz, (r.v->'next'->>'goldenRoll')::double precision, p_golden_rate, p_golden_first_rate,
        (r.v->'next'->>'orderRoll')::double precision) x;
  END LOOP;
END $function$
;
