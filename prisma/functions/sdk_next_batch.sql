-- Several annotators' `next` calls in one statement: sdk_next for each request in the order given, each
-- claimed exactly as alone (a later one sees the earlier ones' assignments); all commit together.
CREATE OR REPLACE FUNCTION public.sdk_next_batch(p_requests jsonb, p_now timestamp with time zone, p_expires_at timestamp with time zone, p_golden_rate double precision, p_golden_first_rate double precision)
 RETURNS TABLE(request integer, outcome text, assignment_id text, expires_at timestamp with time zone, id text, buyer_id text, type text, content text, options text[], locale text, answer_kind text, candidates jsonb, max_length integer)
 LANGUAGE plpgsql
AS $function$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT (e.ordinality - 1)::int AS n, e.value AS v FROM jsonb_array_elements(p_requests) WITH ORDINALITY e LOOP
    RETURN QUERY
      SELECT r.n, s.* FROM sdk_next(
        r.v->>'developerId', r.v->>'externalId', r.v->>'newAnnotatorId', r.v->>'assignmentId', r.v->>'locale',
        CASE WHEN jsonb_typeof(r.v->'types') = 'array' THEN ARRAY(SELECT jsonb_array_elements_text(r.v->'types')) END, p_now, p_expires_at,
        (r.v->>'goldenRoll')::double precision, p_golden_rate, p_golden_first_rate, (r.v->>'orderRoll')::double precision) s;
  END LOOP;
END $function$
;
