-- An answer as a task of its kind stores it, or NULL when it does not fit (INVALID_ANSWER). Single choice
-- and rating: one of the options, given as text (p_choices NULL). Multi-select: distinct options, given as
-- a JSON array (p_choices) or as text joined by | (p_answer), empty only where the task allows it, stored
-- as the JSON array of those options in the task's option order, so that equal sets are equal texts.
CREATE OR REPLACE FUNCTION public.task_answer(p_options text[], p_answer_kind text, p_allow_empty boolean, p_answer text, p_choices jsonb)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE
    WHEN p_answer_kind <> 'multi' THEN CASE WHEN p_choices IS NULL AND p_answer = ANY (p_options) THEN p_answer END
    ELSE (
      SELECT CASE
        WHEN c IS NULL OR jsonb_typeof(c) <> 'array' THEN NULL
        WHEN EXISTS (SELECT 1 FROM jsonb_array_elements(c) e WHERE jsonb_typeof(e) <> 'string' OR NOT ((e #>> '{}') = ANY (p_options))) THEN NULL
        WHEN (SELECT count(DISTINCT e #>> '{}') FROM jsonb_array_elements(c) e) <> jsonb_array_length(c) THEN NULL
        WHEN jsonb_array_length(c) = 0 AND NOT p_allow_empty THEN NULL
        ELSE array_to_json(ARRAY(SELECT u.o FROM unnest(p_options) WITH ORDINALITY u(o, i) WHERE c ? u.o ORDER BY u.i))::text
      END
      FROM (SELECT coalesce(p_choices, to_jsonb(string_to_array(p_answer, '|'))) AS c) given)
  END
$function$
;
