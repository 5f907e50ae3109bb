-- The option set of a task's scope, in the order its counts use: single choice and multi-select sort it
-- (label_scope_options); a rating scope keeps the levels in the task's order, lowest first.
CREATE OR REPLACE FUNCTION public.task_scope_options(p_options text[], p_answer_kind text)
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN p_answer_kind = 'rating' THEN p_options ELSE label_scope_options(p_options) END
$function$
;
