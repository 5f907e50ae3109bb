// Developers (the apps whose annotators answer tasks): the list, a new developer (its API key shown
// once, an invite e-mail queued), a regenerated key (shown once; the old one stops at once) and
// disabling or enabling an account.
import { useState } from 'react';
import { Button } from '../ui/Button';
import { Dialog } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { SecretDone, SecretReveal } from '../ui/SecretReveal';
import { Pager, useCursorStack } from '../ui/pagination';
import { DeveloperTable } from './DeveloperTable';
import { NewDeveloperDialog } from './NewDeveloperDialog';
import { useDevelopers, useRegenerateDeveloperKey, useSetDeveloperActive } from './queries';
import './admin.css';

export function DevelopersPage() {
  const [creating, setCreating] = useState(false);
  const [newKey, setNewKey] = useState<{ appName: string; apiKey: string } | null>(null);
  const [copied, setCopied] = useState(false);
  const pages = useCursorStack();
  const developers = useDevelopers(pages.cursor);
  const regenerate = useRegenerateDeveloperKey();
  const setActive = useSetDeveloperActive();

  return (
    <>
      <PageHeader
        title="Developers"
        description="Apps whose annotators answer tasks through the SDK. Each has one API key; its developer sets a password from the invite e-mail."
        actions={
          <Button variant="primary" onClick={() => setCreating(true)}>
            New developer
          </Button>
        }
      />
      <Card>
        {developers.isPending ? (
          <Loading label="Loading developers…" />
        ) : developers.isError ? (
          <ErrorNote error={developers.error} />
        ) : developers.data.developers.length === 0 && pages.page === 1 ? (
          <EmptyState title="No developers yet">
            <p>Create one to hand an app its API key.</p>
          </EmptyState>
        ) : (
          <>
            <DeveloperTable
              developers={developers.data.developers}
              onRegenerate={async (developer) => {
                const result = await regenerate.mutateAsync(developer.id);
                setCopied(false);
                setNewKey({ appName: developer.appName, apiKey: result.apiKey });
              }}
              onSetActive={(developer, isActive) => setActive.mutateAsync({ id: developer.id, isActive })}
            />
            <Pager
              page={pages.page}
              hasMore={developers.data.hasMore}
              busy={developers.isFetching}
              onPrevious={pages.previous}
              onNext={() => pages.next(developers.data.nextCursor)}
            />
          </>
        )}
      </Card>
      <NewDeveloperDialog open={creating} onClose={() => setCreating(false)} />
      <Dialog
        open={newKey !== null}
        title={`${newKey?.appName ?? ''} has a new key`}
        onClose={() => setNewKey(null)}
        dismissible={copied}
        blockedMessage="Copy the key first: it is shown only once. Once it is copied, or “I have copied the API key” is ticked, Escape closes this."
      >
        {newKey ? (
          <>
            <SecretReveal
              label="API key"
              value={newKey.apiKey}
              onCopied={() => setCopied(true)}
              note="Shown once: copy it now and hand it to the developer. The old key already stopped working."
            />
            <SecretDone what="the API key" copied={copied} onCopiedChange={setCopied} onDone={() => setNewKey(null)} />
          </>
        ) : null}
      </Dialog>
    </>
  );
}
