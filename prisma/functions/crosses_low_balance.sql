-- budget.low's rule, in one place: a move of a buyer's balance crosses the low-balance threshold when it
-- takes the balance from p_threshold or above to below it (once per crossing; a top-up back above it
-- re-arms it). Task charges (apply_settlement_effects) and admin adjustments and deposits
-- (src/modules/billing/billing.repository.ts changeBalance) ask it; the service records the event.
CREATE OR REPLACE FUNCTION public.crosses_low_balance(p_before bigint, p_after bigint, p_threshold bigint)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT p_before >= p_threshold AND p_after < p_threshold
$function$
;
