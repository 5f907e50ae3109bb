// The exact request the Download button sends, to reproduce with curl, with buttons to copy it.
import { BreakableAddress } from '../ui/BreakableAddress';
import { CopyButton } from '../ui/CopyButton';

export function RequestPreview({ query, fileName, refused }: { query: string; fileName: string; refused: boolean }) {
  const path = `/api/v1/exports${query ? `?${query}` : ''}`;
  const url = `${window.location.origin}${path}`;
  const curl = `curl -fS -H "Authorization: Bearer $CONCORD_API_KEY" -o '${fileName}' '${url}'`;
  return (
    <section className="request" aria-label="API request">
      <p className="request-title">The exact request, to reproduce with curl ($CONCORD_API_KEY: one of your API keys, from the API keys page):</p>
      {/* Wrapped between the address's parts on a narrow screen, never inside a parameter's name. */}
      <pre className="request-code mono">
        GET <BreakableAddress address={path} />
      </pre>
      <pre className="request-code mono">
        <BreakableAddress address={curl} />
      </pre>
      <div className="request-actions">
        <CopyButton variant="ghost" text={url} label="Copy URL" />
        <CopyButton variant="ghost" text={curl} label="Copy curl command" />
        {refused ? <span className="field-hint">The API would refuse this request as it stands: see the messages above.</span> : null}
      </div>
    </section>
  );
}
