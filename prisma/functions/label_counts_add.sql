-- Element-wise a + b (a NULL array or missing element counts as zero): how soft counts are added.
CREATE OR REPLACE FUNCTION public.label_counts_add(a double precision[], b double precision[])
 RETURNS double precision[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT coalesce(array_agg(coalesce(x, 0) + coalesce(y, 0) ORDER BY i), '{}') FROM unnest(a, b) WITH ORDINALITY AS u(x, y, i)
$function$
;
