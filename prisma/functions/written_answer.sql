-- A text task's written answer as it is stored, or NULL when it does not fit (INVALID_ANSWER): trimmed of
-- whitespace at both ends, 1 to p_max_length characters, and not forging its review's layout
-- (written_answer_parts).
CREATE OR REPLACE FUNCTION public.written_answer(p_answer text, p_max_length integer)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN char_length(w.trimmed) BETWEEN 1 AND p_max_length AND NOT w.forged THEN w.trimmed END
  FROM written_answer_parts(p_answer) w
$function$
;
