// The e-mail outbox, outside production only: without SMTP the mail stays here, so a newcomer can open
// a developer's invite and follow its link. In production the route does not exist (404 NOT_FOUND) and
// the page says why instead of showing an error. A mail the worker keeps for want of SMTP stays PENDING
// for good; outside production the page says "Kept (no SMTP)" instead (the API does not say whether SMTP
// is set: a mail that is about to go out through a configured server reads the same for a few seconds).
import { Fragment, useState } from 'react';
import { ApiError } from '../api/errors';
import { BreakableAddress } from '../ui/BreakableAddress';
import { useMeta } from '../api/meta';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { ScrollArea } from '../ui/ScrollArea';
import { StatusBadge } from '../ui/StatusBadge';
import { formatDateTime } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { useOutbox, type MailMessage } from './queries';
import './admin.css';

const KINDS: Record<string, string> = {
  WELCOME: 'Welcome',
  DEVELOPER_INVITE: 'Developer invite',
  BUDGET_LOW: 'Budget low',
};

export function OutboxPage() {
  const pages = useCursorStack();
  const outbox = useOutbox(pages.cursor);
  const production = outbox.error instanceof ApiError && outbox.error.status === 404;
  const environment = useMeta().data?.environment;
  return (
    <>
      <PageHeader
        title="E-mail outbox"
        description="Mail the service queued, newest first. Shown in development only, so invites can be followed without a mail server."
      />
      {outbox.isPending ? (
        <Loading label="Loading the outbox…" />
      ) : production ? (
        <Notice tone="info">
          The e-mail outbox is only shown in development. Here mail goes out through the SMTP server (<code>SMTP_URL</code>): ask the recipient to look in their
          mailbox.
        </Notice>
      ) : outbox.isError ? (
        <ErrorNote error={outbox.error} />
      ) : outbox.data.messages.length === 0 && pages.page === 1 ? (
        <Card>
          <EmptyState title="No mail yet">
            <p>Creating a developer queues an invite; a buyer’s sign-up queues a welcome.</p>
          </EmptyState>
        </Card>
      ) : (
        <Card>
          <MessageTable messages={outbox.data.messages} keptWhenPending={environment !== undefined && environment !== 'production'} />
          <Pager
            page={pages.page}
            hasMore={outbox.data.hasMore}
            busy={outbox.isFetching}
            onPrevious={pages.previous}
            onNext={() => pages.next(outbox.data.nextCursor)}
          />
        </Card>
      )}
    </>
  );
}

function MailStatus({ message, keptWhenPending }: { message: MailMessage; keptWhenPending: boolean }) {
  if (message.status === 'PENDING' && keptWhenPending) {
    return (
      <span className="badge badge-neutral" title="SMTP_URL is not set, so the service keeps the mail here; it goes out once SMTP is configured.">
        Kept (no SMTP)
      </span>
    );
  }
  return <StatusBadge status={message.status} />;
}

function MessageTable({ messages, keptWhenPending }: { messages: MailMessage[]; keptWhenPending: boolean }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(() => new Set());
  const toggle = (id: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  return (
    <ScrollArea label="E-mail outbox" className="admin-table">
      <table>
        <caption className="sr-only">E-mail outbox</caption>
        <thead>
          <tr>
            <th scope="col">Subject</th>
            <th scope="col">To</th>
            <th scope="col" className="wide">
              Kind
            </th>
            <th scope="col">Status</th>
            <th scope="col" className="wide">
              Created
            </th>
          </tr>
        </thead>
        <tbody>
          {messages.map((message) => {
            const expanded = open.has(message.id);
            const detailId = `mail-${message.id}`;
            return (
              <Fragment key={message.id}>
                <tr className={expanded ? 'mail-row-open' : undefined}>
                  <td>
                    <button type="button" className="link-button expander" aria-expanded={expanded} aria-controls={detailId} onClick={() => toggle(message.id)}>
                      <span className="expander-icon" aria-hidden="true">
                        {expanded ? '▾' : '▸'}
                      </span>
                      {message.subject}
                    </button>
                  </td>
                  <td>
                    <span className="cell-label">To</span>
                    <BreakableAddress address={message.to} />
                  </td>
                  <td className="wide">
                    <span className="cell-label">Kind</span>
                    {KINDS[message.kind] ?? message.kind}
                  </td>
                  <td>
                    <span className="cell-label">Status</span>
                    <span className="nowrap">
                      <MailStatus message={message} keptWhenPending={keptWhenPending} />
                    </span>
                  </td>
                  <td className="wide">
                    <span className="cell-label">Created</span>
                    <span className="nowrap">{formatDateTime(message.createdAt)}</span>
                  </td>
                </tr>
                {expanded ? (
                  <tr className="mail-detail" id={detailId}>
                    <td colSpan={5}>
                      <MessageText text={message.text} links={message.links} />
                      {message.sentAt ? <p className="muted small">Sent {formatDateTime(message.sentAt)}</p> : null}
                    </td>
                  </tr>
                ) : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </ScrollArea>
  );
}

// The service's own rule (mail-links.ts): an absolute http(s) URL runs to the next space, quote, angle
// bracket or parenthesis, and sentence punctuation after it is not part of it.
const URL_PATTERN = /https?:\/\/[^\s"'<>()]+/g;
const TRAILING_PUNCTUATION = /[.,;:!?]+$/;

/** The plain-text body with the links the API found in it made clickable. */
export function MessageText({ text, links }: { text: string; links: string[] }) {
  const known = new Set(links);
  const parts: (string | { url: string })[] = [];
  let last = 0;
  for (const match of text.matchAll(URL_PATTERN)) {
    const url = match[0].replace(TRAILING_PUNCTUATION, '');
    const start = match.index;
    if (!known.has(url)) continue;
    parts.push(text.slice(last, start), { url });
    last = start + url.length;
  }
  parts.push(text.slice(last));
  return (
    <pre className="mail-text">
      {parts.map((part, i) =>
        typeof part === 'string' ? (
          <Fragment key={i}>{part}</Fragment>
        ) : (
          <a key={i} href={part.url} target="_blank" rel="noreferrer noopener">
            {part.url}
          </a>
        ),
      )}
    </pre>
  );
}
