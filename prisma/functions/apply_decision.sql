-- A decided task's participants: p_updates [{annotatorId, answered, resolved, agreed, earnedCents,
-- ledgerId}] sorted by annotatorId; the rows are locked one by one in that order (the order every caller
-- uses, so two decisions sharing annotators cannot deadlock). Each annotator who earned gets an EARNING
-- ledger row whose balance is their available cents after it.
CREATE OR REPLACE FUNCTION public.apply_decision(p_task_id text, p_updates jsonb)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  u record;
  v_available bigint;
BEGIN
  FOR u IN SELECT * FROM jsonb_to_recordset(p_updates)
             AS t("annotatorId" text, answered int, resolved int, agreed int, "earnedCents" bigint, "ledgerId" text) LOOP
    UPDATE annotators a SET
      total_responses = a.total_responses + u.answered,
      resolved_responses = a.resolved_responses + u.resolved,
      agreed_responses = a.agreed_responses + u.agreed,
      earned_cents = a.earned_cents + u."earnedCents"
    WHERE a.id = u."annotatorId"
    RETURNING a.earned_cents - a.paid_out_cents - a.pending_payout_cents INTO v_available;
    IF u."earnedCents" > 0 THEN
      INSERT INTO ledger_entries (id, annotator_id, type, amount_cents, balance_after_cents, task_id)
      VALUES (u."ledgerId", u."annotatorId", 'EARNING', u."earnedCents", v_available, p_task_id);
    END IF;
  END LOOP;
END $function$
;
