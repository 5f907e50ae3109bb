-- The option set of a task's scope, in the order its matrices use: single choice sorts it
-- (label_scope_options); a rating scope keeps the levels in the task's order, lowest first.
CREATE OR REPLACE FUNCTION public.task_scope_options(p_options text[], p_answer_kind text)
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT CASE WHEN p_answer_kind = 'single' THEN label_scope_options(p_options) ELSE p_options END
$function$
;
