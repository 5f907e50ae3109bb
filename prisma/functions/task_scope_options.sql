-- The option set of a task's scope, in the order its counts use: single choice and multi-select sort it
-- (label_scope_options); a rating scope keeps the levels in the task's order, lowest first; a pairwise
-- scope's are A, B and tie whatever its tasks allow (its counts are 3×3 tables as shown on screen).
CREATE OR REPLACE FUNCTION public.task_scope_options(p_options text[], p_answer_kind text)
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE p_answer_kind WHEN 'rating' THEN p_options WHEN 'pairwise' THEN ARRAY['A', 'B', 'tie'] ELSE label_scope_options(p_options) END
$function$
;
