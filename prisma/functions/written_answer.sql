-- A text task's written answer as it is stored, or NULL when it does not fit (INVALID_ANSWER): trimmed of
-- whitespace at both ends ([[:space:]]: spaces, tabs, line breaks), 1 to p_max_length characters, and no
-- line that begins "Answer <n>:", the layout of its review's content, which a writer could otherwise use to
-- forge a numbered answer there (open_text_review).
CREATE OR REPLACE FUNCTION public.written_answer(p_answer text, p_max_length integer)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN char_length(t) BETWEEN 1 AND p_max_length AND t !~* '(^|\n)[[:space:]]*answer[[:space:]]+[0-9]+[[:space:]]*:' THEN t END
  FROM (SELECT regexp_replace(p_answer, '^[[:space:]]+|[[:space:]]+$', '', 'g') AS t) trimmed
$function$
;
