-- A pairwise answer as the annotator gave it (first, second or tie, by the order their assignment showed)
-- as the candidate it names (A, B or tie), or NULL for anything else; the contract's pairAnswerOf.
CREATE OR REPLACE FUNCTION public.pair_answer(p_shown text, p_swapped boolean)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE p_shown WHEN 'tie' THEN 'tie'
                      WHEN 'first' THEN CASE WHEN p_swapped THEN 'B' ELSE 'A' END
                      WHEN 'second' THEN CASE WHEN p_swapped THEN 'A' ELSE 'B' END END
$function$
;
