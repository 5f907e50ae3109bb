-- Exports read a buyer's completed tasks in (validated_at, id) order (partial: only completed tasks pay for it).
CREATE INDEX "tasks_export_completed_idx" ON "tasks"("buyer_id", "validated_at", "id") WHERE "status" = 'COMPLETED';
