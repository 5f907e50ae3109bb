-- Where a task stands in its buyer's own queue (sdk_next): its creation moved ten minutes earlier per point
-- of priority, so a task of priority p goes before the buyer's tasks of priority 0 created up to 10·p
-- minutes before it, and one of priority −p after those created up to 10·p minutes after it; nothing waits
-- longer than that behind newer work. IMMUTABLE (an index expression, tasks_buyer_queue_idx): a
-- timestamptz minus a whole number of minutes is the same instant in every time zone; the operator is
-- only STABLE because intervals of days and months are not.
CREATE OR REPLACE FUNCTION public.task_queue_at(p_created_at timestamp with time zone, p_priority smallint)
 RETURNS timestamp with time zone
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT p_created_at - make_interval(mins => p_priority * 10)
$function$
;
