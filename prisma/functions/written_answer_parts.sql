-- What the rules of a written answer read (written_answer; the refusal's message reads them too): the answer
-- trimmed of whitespace at both ends ([[:space:]]: spaces, tabs, line breaks), and whether a line of it
-- begins "Answer <n>:", the layout of its review's content (open_text_review), which a writer could
-- otherwise use to forge a numbered answer there.
CREATE OR REPLACE FUNCTION public.written_answer_parts(p_answer text)
 RETURNS TABLE(trimmed text, forged boolean)
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT t, t ~* '(^|\n)[[:space:]]*answer[[:space:]]+[0-9]+[[:space:]]*:'
  FROM (SELECT regexp_replace(p_answer, '^[[:space:]]+|[[:space:]]+$', '', 'g') AS t) x
$function$
;
