-- A pairwise task's candidates as one assignment shows them: {"first": …, "second": …}, B first when the
-- assignment is `swapped`; NULL for a task of another kind (no candidates).
CREATE OR REPLACE FUNCTION public.shown_candidates(p_candidates jsonb, p_swapped boolean)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN p_candidates IS NOT NULL THEN
    jsonb_build_object('first', p_candidates->(CASE WHEN p_swapped THEN 'B' ELSE 'A' END),
                       'second', p_candidates->(CASE WHEN p_swapped THEN 'A' ELSE 'B' END)) END
$function$
;
